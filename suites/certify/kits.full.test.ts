import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The adapter kits' own suites (examples/kits): the protocol loop, the error texts that keep Redis's
// codes (BUSY a refusal), refusals, give-backs, live holder handles and computed keys, in Python, Go
// and Java, without a cluster. Each kit is used for real by the examples and the third-party adapters
// (examples.full.test.ts, third-party.full.test.ts). The bootstrap that test:full runs installs what
// they need (the example's venv, Go, Maven).

const ROOT = path.resolve(import.meta.dirname, '../..');
const KITS = path.join(ROOT, 'examples/kits');

function run(command: string, args: string[], cwd: string) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 600_000 });
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

describe('the adapter kits', () => {
  it('python: unittest', () => {
    const r = run(
      path.join(ROOT, 'examples/python-redis-py/.venv/bin/python'),
      ['-m', 'unittest', 'discover', '-s', path.join(KITS, 'python')],
      ROOT,
    );
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Ran \d+ tests/);
  }, 120_000);

  it('go: go test', () => {
    const r = run('go', ['test', './...'], path.join(KITS, 'go'));
    expect(r.code, r.out).toBe(0);
  }, 600_000);

  it('java: mvn test', () => {
    const r = run('mvn', ['-q', '-B', '-Dstyle.color=never', 'test'], path.join(KITS, 'java'));
    expect(r.code, r.out).toBe(0);
  }, 600_000);
});
