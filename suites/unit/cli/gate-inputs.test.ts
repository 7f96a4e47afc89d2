import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cli, forbidClusters, STACK_FRAME } from './support.ts';

// Bad input to the CI-gate flags and commands (--shard, --corpus, --baseline, merge, corpus): one
// line, exit 2, before any cluster starts.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-gate-inputs-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const f = path.join(tmp, name);
  fs.writeFileSync(f, text);
  return f;
};

let attempts: string[];
beforeEach(() => {
  attempts = forbidClusters();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const lock = ['certify', '--impl', 'lua:lua/lock', '--pattern', 'lock'];

describe('CI-gate inputs: one line, exit 2, no cluster', () => {
  const badCorpus = path.join(tmp, 'corpus');
  fs.mkdirSync(badCorpus);
  fs.writeFileSync(path.join(badCorpus, 'entry.json'), '{"version": 1, "pattern": "lock"}');
  const cases: [string, string[], RegExp][] = [
    ['a shard past n', [...lock, '--shard', '4/4', '--seed', '1'], /--shard 4\/4: k must be below n/],
    ['a shard that is not k/n', [...lock, '--shard', 'two', '--seed', '1'], /--shard must be k\/n/],
    ['a shard without --seed', [...lock, '--shard', '0/2'], /--shard needs --seed/],
    ['a shard with --path', [...lock, '--shard', '0/2', '--seed', '1', '--path', '3'], /--shard and --path together/],
    [
      'a corpus that is a file',
      [...lock, '--corpus', file('not-a-dir', 'x')],
      /--corpus .*not-a-dir: is a file, not a directory\n$/,
    ],
    [
      'a corpus with an unreadable entry',
      [...lock, '--corpus', badCorpus],
      /--corpus: corpus entry .*entry\.json: not a valid counterexample/,
    ],
    ['run with a bad corpus', ['run', '--corpus', badCorpus, '--pattern', 'lock'], /run: --corpus: corpus entry/],
    [
      'a missing baseline',
      [...lock, '--baseline', path.join(tmp, 'none.json')],
      /--baseline .*none\.json: not a readable JSON file/,
    ],
    [
      'a baseline that is not a certificate',
      [...lock, '--baseline', file('b.json', '{"version": 1}')],
      /--baseline .*b\.json: not a valid certificate: certified: expected a boolean/,
    ],
    [
      'merge without certificates',
      ['merge', '--out', path.join(tmp, 'm.json')],
      /merge: expected the certificate\.json of each shard/,
    ],
    [
      'merge of a non-certificate',
      ['merge', file('c.json', '[]'), '--out', path.join(tmp, 'm.json')],
      /merge: .*c\.json: not a valid certificate: not a certificate \(it holds an array\)/,
    ],
    ['corpus with no action', ['corpus'], /corpus: expected list or prune/],
  ];
  it.each(cases)('%s', async (_, argv, message) => {
    const r = await cli(argv);
    expect(r.stderr).toMatch(message);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(attempts).toEqual([]);
  });

  it('help names the new flags and commands', async () => {
    expect((await cli(['certify', '--help'])).stdout).toMatch(
      /--corpus DIR[\s\S]*--no-corpus[\s\S]*--shard k\/n[\s\S]*--baseline FILE/,
    );
    expect((await cli(['run', '--help'])).stdout).toMatch(/--corpus DIR/);
    expect((await cli(['merge', '--help'])).stdout).toMatch(/--out FILE/);
    expect((await cli(['corpus', '--help'])).stdout).toMatch(/list .*\n[\s\S]*prune/);
    expect((await cli(['--help'])).stdout).toMatch(/merge[\s\S]*corpus/);
  });
});
