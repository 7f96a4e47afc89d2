import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { cli, forbidClusters } from './support.ts';

// Messages that once blamed the wrong thing (a flag never given, a file not named): each names what
// the user typed, in one line.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const COUNTEREXAMPLE = path.join(ROOT, 'suites/report/fixtures/20261130-081012-run-7/counterexample.json');
const REFERENCE = `lua:${path.join(ROOT, 'lua/idempotency')}`;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-typed-messages-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

async function oneLine(argv: string[], message: RegExp) {
  const clusters = forbidClusters();
  const r = await cli(argv);
  expect(r.stderr.trimEnd()).toMatch(message);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.code, r.stderr).toBe(2);
  expect(clusters).toEqual([]);
}

describe('messages name what the user typed', () => {
  it('CHAOSLUA_CLUSTERS=x is named by the variable and its value, not as a flag never given', async () => {
    vi.stubEnv('CHAOSLUA_CLUSTERS', 'x');
    await oneLine(
      ['certify', '--impl', REFERENCE],
      /^chaoslua: certify: CHAOSLUA_CLUSTERS=x: must be an integer in \[1, 16\] or auto$/,
    );
  });

  it('--clusters 99 is refused by its limit (16), before memory is asked', async () => {
    await oneLine(
      ['certify', '--impl', REFERENCE, '--clusters', '99'],
      /^chaoslua: certify: --clusters must be an integer in \[1, 16\], got '99'$/,
    );
  });

  it('a long value is cut, with its length', async () => {
    await oneLine(
      ['certify', '--impl', REFERENCE, '--runs', '7'.repeat(5000)],
      /got '7{40}\.\.\. \(5000 characters\)'$/,
    );
  });

  it('a chaoslua-JSON operation completed before it was invoked is refused, as in EDN', async () => {
    const file = path.join(tmp, 'inverted.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        ops: [
          {
            id: 1,
            client: 0,
            key: 'k',
            input: { op: 'write', value: 1 },
            invokedAt: 10,
            completedAt: 1,
            outcome: 'ok',
            result: null,
          },
        ],
      }),
    );
    await oneLine(
      ['check', file, '--model', 'register', '--no-report'],
      /ops\[0\]: "completedAt" 1 comes before its "invokedAt" 10/,
    );
  });

  it('every corpus field is checked by its type: corpus.impl: 5', async () => {
    const dir = path.join(tmp, 'corpus');
    fs.mkdirSync(dir);
    const entry = JSON.parse(fs.readFileSync(COUNTEREXAMPLE, 'utf8'));
    fs.writeFileSync(
      path.join(dir, 'e.json'),
      JSON.stringify({ ...entry, corpus: { sha256: 'ab', savedAt: '2026-12-01T00:00:00Z', from: 'x', impl: 5 } }),
    );
    await oneLine(['corpus', 'list', dir], /e\.json: corpus\.impl: expected a string, got 5$/);
  });

  it('certify --help separates a pattern from its setting', async () => {
    const r = await cli(['certify', '--help']);
    expect(r.stdout).toMatch(/ idempotency +lease /);
    expect(r.stdout).not.toContain('idempotencylease');
  });
});
