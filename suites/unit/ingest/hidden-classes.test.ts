// Operations read from a JSON history must share a handful of V8 hidden classes. A copy made with
// `{ ...parsed, type: 'op' }` gave every operation a class of its own when the file had no "type",
// and every read of an operation in the checker became a slow lookup (check 2.5x slower). This is
// not a timed test: V8's own answer (%HaveSameMap, in a child run with natives syntax) is asserted.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

const SCRIPT = `
import { parseChaosluaJson } from ${JSON.stringify(path.join(ROOT, 'src/ingest/chaoslua-json.ts'))};
const same = new Function('a', 'b', 'return %HaveSameMap(a, b)');
const op = (i, typed) => ({ ...(typed ? { type: 'op' } : {}), id: i, client: i % 8, key: 'k' + (i % 7),
  input: { op: 'acquire', token: 't' + i }, invokedAt: i, completedAt: i + 2,
  ...(i % 5 === 0 ? { outcome: 'info', error: 'timed out' } : { outcome: 'ok', output: i % 3 ? 1 : null }) });
const classes = [];
for (const typed of [true, false]) {
  const text = JSON.stringify({ ops: Array.from({ length: 500 }, (_, i) => op(i, typed)) });
  const reps = [];
  for (const o of parseChaosluaJson('h.json', text).history.ops) if (!reps.some((r) => same(r, o))) reps.push(o);
  classes.push(reps.length);
}
console.log(JSON.stringify(classes));
`;

describe('operations read from chaoslua JSON', () => {
  it('share a few hidden classes, with or without "type" in the file', () => {
    const run = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', SCRIPT],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    const [typed, untyped] = JSON.parse(run.stdout.trim()) as [number, number];
    // Two shapes of record (ok with output, info with error), each at most a class or two.
    expect(typed).toBeLessThanOrEqual(4);
    expect(untyped).toBeLessThanOrEqual(4);
  });
});
