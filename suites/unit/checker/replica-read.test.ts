/**
 * The lock history the soak met on 2026-12-05 (bench/results/hard/, docs/testing.md): one client's
 * EVALSHA went, over ioredis's READONLY replica connection, to a replica whose link a toxic had cut,
 * and a script without a `#!lua` line ran there: every write failed at its line, and a release
 * answered from stale data. A real anomaly of those scripts under that client (every EVAL script
 * now starts with `#!lua`), so the checker must keep rejecting it, and name the answer.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { History } from '../../../src/history/types.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import type { LockInput, LockOutput } from '../../../src/patterns/models.ts';

const fixture = new URL('./fixtures/lock-soak-seed20261202-replica-read.json', import.meta.url);
const { history } = JSON.parse(readFileSync(fixture, 'utf8')) as { history: History<LockInput, LockOutput> };

describe("the lock soak's replica read", () => {
  it('shows the mechanism: one client alone has its script writes refused by a replica', () => {
    const refused = history.ops.filter((o) => /^READONLY .* on @user_script:\d+/.test(o.error ?? ''));
    expect(refused.length).toBeGreaterThan(10);
    expect(new Set(refused.map((o) => o.client))).toEqual(new Set([6]));
  });

  it('is illegal: the release answered nil while another client held the lock, named at op 84', () => {
    const result = check(history, PATTERNS.lock);
    expect(result.verdict).toBe('illegal');
    expect(result.violations).toHaveLength(1);
    const [violation] = result.violations;
    expect(violation.subHistory.map((o) => o.id)).toContain(84);
    expect(violation.message).toMatch(/client 6's release\(.*\(op 84,.*returned nil/);
  });
});
