import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectedSpanMs, scheduleArbitrary, type ClientStep, type FaultStep } from '../../../src/generator/index.ts';
import { withLateLooks } from '../../../src/generator/late-looks.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const op = (key: number, owner: string): ClientStep => ({
  type: 'op',
  key,
  input: { op: 'register', fingerprint: 'f', owner, leaseMs: 1_000 },
});
const partition = (ms: number, key = 0, seed = 0): FaultStep => ({
  kind: 'partition',
  atMs: 100,
  shape: 'one',
  key,
  ms,
  seed,
});

describe('a long partition gets a late look at its key', () => {
  const clients: ClientStep[][] = [[op(0, 'a'), { type: 'pause', ms: 50 }, op(1, 'b')], [op(1, 'c')]];

  it('a client that used the key repeats its first operation on it half a node timeout before the partition ends and a quarter after', () => {
    const out = withLateLooks(clients, [partition(3_000)], 1_000);
    expect(out[1]).toEqual(clients[1]);
    expect(out[0].slice(0, 3)).toEqual(clients[0]);
    const span = expectedSpanMs(clients[0]);
    expect(out[0].slice(3)).toEqual([
      { type: 'pause', ms: 100 + 3_000 - 500 - span },
      op(0, 'a'),
      { type: 'pause', ms: 750 - 2 },
      op(0, 'a'),
    ]);
  });

  it('a partition within the node timeout (no failover), or on a key nobody used, adds nothing', () => {
    expect(withLateLooks(clients, [partition(500)], 1_000)).toEqual(clients);
    expect(withLateLooks(clients, [partition(3_000, 2)], 1_000)).toEqual(clients);
    expect(withLateLooks(clients, [{ kind: 'script-flush', atMs: 10 }], 1_000)).toEqual(clients);
  });

  it("the partition's seed picks among the clients that used the key, so it replays", () => {
    expect(withLateLooks(clients, [partition(3_000, 1, 1)], 1_000)[1].at(-1)).toEqual(op(1, 'c'));
    expect(withLateLooks(clients, [partition(3_000, 1, 0)], 1_000)[0].at(-1)).toEqual(op(1, 'b'));
    expect(withLateLooks(clients, [partition(3_000, 1, 0)], 1_000)[1]).toEqual(clients[1]);
  });

  it("drawn netns schedules end every long partition's key with a look after it", () => {
    const arb = scheduleArbitrary({ pattern: PATTERNS.idempotency, faults: ['partition-one'], nodeTimeoutMs: 1_000 });
    fc.assert(
      fc.property(arb, (schedule) => {
        for (const f of schedule.faults) {
          if (f.kind !== 'partition' || f.ms <= 1_000) continue;
          // Some client has an operation on the key that starts (by the expected span) after the partition ends.
          const late = schedule.clients.some((steps) =>
            steps.some(
              (s, i) => s.type === 'op' && s.key === f.key && expectedSpanMs(steps.slice(0, i)) >= f.atMs + f.ms,
            ),
          );
          const used = schedule.clients.some((steps) => steps.some((s) => s.type === 'op' && s.key === f.key));
          expect(!used || late).toBe(true);
        }
      }),
      { numRuns: 200, seed: 1 },
    );
  });
});
