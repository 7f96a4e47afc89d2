/** What `chaoslua check` leaves behind: a run folder the other commands read. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, tempDir } from './support.ts';

describe('check run folder', () => {
  it('holds report.html, result.json and a counterexample that replay, export and check read again', async () => {
    const root = tempDir('chaoslua-check-');
    const source = path.join(FIXTURES, 'kv', 'c10-bad.txt');
    const { code, stdout } = await cli('check', source, '--report', root);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^check of .*c10-bad\.txt \(porcupine-kv, model kv\): illegal$/m);
    expect(stdout).toMatch(/model-conformance violated on key "\d+"/);
    expect(stdout).toMatch(/minimal violating sub-history \(\d+ ops\):/);

    const [folder] = fs.readdirSync(root).filter((name) => name.includes('-check-kv'));
    const dir = path.join(root, folder);
    const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
    expect(html).toContain('FAILED');
    expect(html).toContain(`chaoslua check ${source} --model kv --format porcupine-kv`);
    expect(html).toContain('Timeline of the shrunk counterexample');
    const result = JSON.parse(fs.readFileSync(path.join(dir, 'result.json'), 'utf8'));
    expect(result).toMatchObject({ command: 'check', passed: false, verdict: 'illegal', pattern: 'kv' });

    const counterexample = path.join(dir, 'counterexample.json');
    const replay = await cli('replay', counterexample, '--no-rerun');
    expect(replay.stdout).toMatch(/re-check of the recorded history: illegal \(recorded: illegal\)/);
    expect(replay.code).toBe(1);
    const again = await cli('check', counterexample, '--no-report', '--json');
    expect(JSON.parse(again.stdout).verdict).toBe('illegal');
    const exported = await cli('export', dir, '--format', 'porcupine');
    expect(exported.code).toBe(0);
    expect(exported.stdout.split('\n')[0]).toBe(fs.readFileSync(source, 'utf8').split('\n')[0]);
  });

  it('writes a passing folder with no counterexample, exit 0', async () => {
    const root = tempDir('chaoslua-check-');
    const { code } = await cli('check', path.join(FIXTURES, 'jepsen', 'etcd_005.log'), '--report', root);
    expect(code).toBe(0);
    const [folder] = fs.readdirSync(root).filter((name) => name.includes('-check-register'));
    expect(fs.readdirSync(path.join(root, folder)).sort()).toEqual(['report.html', 'result.json']);
    expect(fs.readFileSync(path.join(root, folder, 'report.html'), 'utf8')).toContain('PASSED');
  });

  it('prints its help with the formats, models and exit codes', async () => {
    const { code, stdout } = await cli('check', '--help');
    expect(code).toBe(0);
    for (const word of ['porcupine-etcd', 'porcupine-kv', 'jepsen', 'register', 'kv', 'exit codes'])
      expect(stdout).toContain(word);
  });
});
