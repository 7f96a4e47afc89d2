import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cli, forbidClusters, STACK_FRAME } from './support.ts';

// Usage errors of the CLI, in-process: one line naming what is wrong, exit 2, and no cluster
// started. suites/cli/cli.test.ts checks two of them through bin/chaoslua.mjs in a process of its own.

let attempts: string[];
beforeEach(() => {
  attempts = forbidClusters();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('chaoslua CLI: usage errors', () => {
  const usage: [string, string[], RegExp][] = [
    ['an unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
    ['an unknown flag', ['run', '--bogus'], /Unknown option '--bogus'/],
    ['a bad number', ['run', '--runs', 'many'], /--runs must be an integer/],
    ['an unknown fault', ['run', '--faults', 'meteor'], /unknown fault 'meteor'/],
    ['a missing --impl', ['certify'], /--impl is required/],
    ['a malformed --impl', ['certify', '--impl', 'python:x'], /--impl must be lua:DIR/],
    ['a missing directory', ['certify', '--impl', 'lua:/no/such/dir'], /no such directory/],
    ['a script missing from DIR', ['certify', '--impl', 'lua:src'], /lacks register_or_get\.lua/],
    ['an unknown pattern', ['certify', '--impl', 'lua:lua/idempotency', '--pattern', 'queue'], /--pattern must be/],
    ['--path without --seed', ['run', '--path', '1:2'], /--path needs the --seed/],
    ['a missing counterexample', ['replay', '/no/such/file.json'], /not a readable JSON file/],
    ['a bad cluster value', ['run', '--runs', '1', '--cluster', 'ftp://x'], /cluster/],
  ];
  it.each(usage)('%s: one line naming it, exit 2', async (_, args, message) => {
    const r = await cli(args);
    expect(r.stderr).toMatch(message);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(attempts).toEqual([]);
  });
});
