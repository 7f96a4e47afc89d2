import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { History } from '../../../src/history/types.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../../../src/patterns/models.ts';
import { fault, history, op } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

// Indeterminate (info) operations may take effect at any instant after their invocation, or never.
// One that would change nothing where it could be placed is left out rather than placed: the search
// must not double its configurations for each of them.

describe('info operations that change nothing', () => {
  const recorded = JSON.parse(
    readFileSync(new URL('./fixtures/info-ops-around-kill.json', import.meta.url), 'utf8'),
  ) as {
    history: History<IdempotencyInput, IdempotencyOutput>;
  };

  it('a soak history with eight unbounded info ops around a lossy kill is decided, in few states', () => {
    expect(recorded.history.ops.filter((o) => o.outcome === 'info').length).toBe(8);
    const result = check(recorded.history, PATTERNS.idempotency);
    expect(result.verdict).toBe('replication-loss');
    expect(result.stats.statesExplored).toBeLessThan(10_000);
  });

  it('many stray info ops beside a lossy fault: still decided within a small budget, and a real violation still found', () => {
    const lossy = fault('kill-restart', 50, 5_000, true);
    const register = (client: number, owner: string, at: [number, number], output: IdempotencyOutput) =>
      op<IdempotencyInput, IdempotencyOutput>(
        client,
        { op: 'register', fingerprint: 'f', owner, leaseMs: 500 },
        at[0],
        at[1],
        { output },
      );
    const strays = Array.from({ length: 20 }, (_, i) =>
      op<IdempotencyInput, IdempotencyOutput>(
        10 + i,
        { op: 'renew', owner: `stale${i}`, leaseMs: 500 },
        60 + i * 10,
        3_000 + i,
        'info',
      ),
    );
    const base = [
      register(1, 'A', [0, 5], ['fresh']),
      op<IdempotencyInput, IdempotencyOutput>(
        1,
        { op: 'complete', owner: 'A', status: '200', body: 'x', ttlMs: 60_000 },
        10,
        15,
        { output: 1 },
      ),
      ...strays,
    ];
    const lost = check(history([...base, register(2, 'B', [4_000, 4_005], ['fresh'])], [lossy]), PATTERNS.idempotency, {
      budget: 20_000,
    });
    expect(lost.verdict).toBe('replication-loss');
    // With no lossy fault the same fresh register is illegal: the completed record (TTL 60 s) had to be there.
    const illegal = check(history([...base, register(2, 'B', [6_000, 6_005], ['fresh'])]), PATTERNS.idempotency, {
      budget: 20_000,
    });
    expect(illegal.verdict).toBe('illegal');
  });
});
