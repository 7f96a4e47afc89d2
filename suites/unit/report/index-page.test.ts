import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listRuns, stampTime, writeIndex } from '../../../src/report/index-page.ts';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-index-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function run(name: string, result: unknown, extra: Record<string, string> = {}): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  if (result !== undefined)
    fs.writeFileSync(path.join(dir, 'result.json'), typeof result === 'string' ? result : JSON.stringify(result));
  for (const [file, text] of Object.entries(extra)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

const passed = (seed: number) => ({
  command: 'run',
  passed: true,
  pattern: 'idempotency',
  impl: 'reference',
  seed,
  runs: 5,
  operations: 100,
  seconds: 6.5,
});
const failed = (seed: number) => ({
  ...passed(seed),
  passed: false,
  invariants: [
    { invariant: 'one-winner', passed: true },
    { invariant: 'no-stale-overwrite', passed: false },
  ],
});

describe('reports/index.html', () => {
  it('reads the folder stamp as UTC', () => {
    expect(stampTime('20261130-080210-run-1')).toBe(Date.UTC(2026, 10, 30, 8, 2, 10));
    expect(stampTime('my-run')).toBeUndefined();
  });

  it('lists run folders newest first; same second by suffix; unstamped by mtime', () => {
    run('20261130-080210-run-1', passed(1));
    run('20261130-090000-certify-5', failed(5), { 'counterexample.json': '{}' });
    run('20261130-090000-certify-5-2', passed(5));
    run('20261130-090000-certify-5-10', passed(5));
    run('20261201-000000-scenario-3', passed(3));
    const old = run('copied-from-ci', failed(9));
    fs.utimesSync(path.join(old, 'result.json'), new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    run('not-a-run', undefined, { 'notes.txt': 'x' });
    expect(listRuns(root).map((r) => r.name)).toEqual([
      '20261201-000000-scenario-3',
      '20261130-090000-certify-5-10',
      '20261130-090000-certify-5-2',
      '20261130-090000-certify-5',
      '20261130-080210-run-1',
      'copied-from-ci',
    ]);
  });

  it('writes rows in that order with their verdicts and links', () => {
    run('20261130-080210-run-1', passed(1), { 'report.html': '<html>' });
    run('20261130-090000-certify-5', failed(5), { 'counterexample.json': '{}' });
    run('20261130-100000-run-7', '{ not json');
    const html = fs.readFileSync(writeIndex(root), 'utf8');
    const rows = [...html.matchAll(/<tr class="run" data-run="([^"]+)"><td class="[^"]+">(\w+)<\/td>/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(rows).toEqual([
      ['20261130-100000-run-7', 'UNREADABLE'],
      ['20261130-090000-certify-5', 'FAILED'],
      ['20261130-080210-run-1', 'PASSED'],
    ]);
    expect(html).toContain('href="20261130-080210-run-1/report.html"');
    expect(html).toContain('href="20261130-090000-certify-5/result.json"');
    expect(html).toContain('no-stale-overwrite');
  });

  it('writes an empty index for an empty or missing folder', () => {
    const html = fs.readFileSync(writeIndex(path.join(root, 'fresh')), 'utf8');
    expect(html).toContain('No run folders yet.');
  });
});
