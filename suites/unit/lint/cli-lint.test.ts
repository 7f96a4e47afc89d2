import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, summary } from '../../../src/cli/lint.ts';
import { RULES } from '../../../src/lint/index.ts';
import { FIXTURES } from './fixtures.ts';

async function lint(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

const fixture = (relative: string) => path.join(FIXTURES, relative);

describe('chaoslua lint', () => {
  it('exits 0 and prints no finding for clean scripts', async () => {
    const result = await lint(fixture('owner-check-first/complete.lua'), fixture('undeclared-key/clean.lua'));
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toContain('2 files, no findings');
  });

  it('exits 1 and prints one file:line:col line per finding', async () => {
    const result = await lint(fixture('tree'));
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/tree\/b\.lua:1:26 undeclared-key /),
      expect.stringMatching(/tree\/nested\/c\.lua:1:8 nondeterminism /),
    ]);
  });

  it('exits 0 when every finding is advice, and marks it so (TIME is safe under effects replication)', async () => {
    const result = await lint(fixture('tree/nested/c.lua'));
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/tree\/nested\/c\.lua:1:8 nondeterminism \(advice\) /);
    expect(result.stderr).toContain('1 finding (0 errors, 1 advice) in 1 file');
  });

  it('gives every rule a severity: what breaks on a cluster or hangs a node is an error, the rest advice', () => {
    expect(Object.fromEntries(RULES.map((r) => [r.id, r.severity]))).toEqual({
      syntax: 'error',
      'server-support': 'error',
      'undeclared-key': 'error',
      'keyspace-scan': 'error',
      'unbounded-loop': 'error',
      'global-assignment': 'error',
      nondeterminism: 'advice',
      'owner-check-first': 'advice',
      'eval-shebang': 'advice',
    });
  });

  it('prints a JSON array with --json', async () => {
    const result = await lint('--json', fixture('syntax/broken.lua'));
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        rule: 'syntax',
        severity: 'error',
        file: fixture('syntax/broken.lua'),
        line: 3,
        column: 9,
        message: expect.any(String),
      },
    ]);
  });

  it('prints usage and every rule with --help', async () => {
    const result = await lint('--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('usage: chaoslua lint');
    for (const rule of RULES) expect(result.stdout).toContain(rule.id);
    expect(summary).toBe('static checks on Redis Lua scripts');
  });

  it.each([
    [[], /^chaoslua lint: no path given/],
    [[fixture('nope.lua')], /^chaoslua lint: no such file or directory: .*nope\.lua$/],
    [['--bogus', fixture('tree')], /^chaoslua lint: .*'--bogus'/],
  ])('exits 2 with a one-line message for %j', async (argv, message) => {
    const result = await lint(...argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd()).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('exits 2 for a directory holding no .lua file', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'chaoslua-lint-'));
    try {
      const result = await lint(empty);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^chaoslua lint: no \.lua file under /);
    } finally {
      await rm(empty, { recursive: true });
    }
  });
});
