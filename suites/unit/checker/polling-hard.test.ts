/**
 * The hardest lock histories found (each once ran out of budget or near it): one key, 50–100 operations, several clients polling
 * `acquire` every few ms, leases running out mid-history, client-link cuts (operations that timed
 * out, ran twice, or were refused and may still have run) and sometimes a lossy fault that really
 * rolled the key back. They come from an oracle independent of the checker
 * (oracle/polling-lock.ts), so each is legal: ok, or replication-loss where the rollback happened.
 * - tiny lock histories with cuts and lossy faults get the brute-force oracle's verdict (the
 *   pruning — dominated configurations, the holder lookahead, expiries whose lease is gone for good
 *   — never hides a violation nor invents one);
 * - generated polling histories are decided within a bounded number of states, and one answer
 *   planted by the oracle's own reasoning (a release answered 1 for a token nobody acquired) is
 *   still caught in each;
 * - the worst histories a sweep of bench/hard-histories.ts found (each ran past the 500,000-state
 *   budget before) are decided, within a stated bound.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { FaultRecord, History, OpRecord } from '../../../src/history/types.ts';
import { lock } from '../../../src/patterns/models.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import type { LockInput, LockOutput } from '../../../src/patterns/models.ts';
import { corruptLock } from './oracle/lock.ts';
import { pollingLockHistory } from './oracle/polling-lock.ts';
import { bruteForceLegal } from './support/oracle.ts';
import { history, keyVerdict, tinyRecords } from './support/ops.ts';

describe('agreement with a brute-force oracle on tiny lock histories with cuts and lossy faults', () => {
  const token = fc.constantFrom('p', 'h');
  const input = fc.oneof(
    fc.record({ op: fc.constant('acquire' as const), token, ttlMs: fc.constantFrom(20, 50) }),
    fc.record({ op: fc.constant('release' as const), token }),
    fc.record({ op: fc.constant('extend' as const), token, ttlMs: fc.constantFrom(0, 50) }),
  );
  const tinyOp = fc.record({
    input: input as fc.Arbitrary<LockInput>,
    output: fc.constantFrom<LockOutput>(1, 0, -1, null),
    invokedAt: fc.integer({ min: 0, max: 120 }),
    duration: fc.integer({ min: 0, max: 15 }),
    outcome: fc.constantFrom('ok', 'ok', 'info', 'fail'),
  });
  const faults = fc
    .array(
      fc.record({
        startedAt: fc.integer({ min: 0, max: 120 }),
        duration: fc.integer({ min: 0, max: 50 }),
        lossy: fc.boolean(),
        cuts: fc.boolean(),
      }),
      { maxLength: 2 },
    )
    .map((drawn) =>
      drawn.map(
        ({ startedAt, duration, lossy, cuts }, i): FaultRecord => ({
          type: 'fault',
          id: 900 + i,
          kind: lossy ? 'failover-force' : 'toxic',
          target: `node ${i}`,
          startedAt,
          endedAt: startedAt + duration,
          lossy,
          cutsConnections: cuts,
          detail: '',
        }),
      ),
    );

  it('gives the verdict the oracle gives', () => {
    fc.assert(
      fc.property(
        fc.array(tinyOp, { minLength: 1, maxLength: 4 }),
        faults,
        fc.constantFrom(0, 5),
        (tiny, drawn, epsMs) => {
          const ops: OpRecord<LockInput, LockOutput>[] = tinyRecords(tiny);
          const lossy = drawn.filter((f) => f.lossy);
          const cuts = drawn.filter((f) => f.cutsConnections);
          const strict = bruteForceLegal(lock, ops, epsMs, [], cuts);
          const relaxed = !strict && lossy.length > 0 && bruteForceLegal(lock, ops, epsMs, lossy, cuts);
          const expected = strict ? 'ok' : relaxed ? 'replication-loss' : 'illegal';
          expect(check(history(ops, drawn), PATTERNS.lock, { eps: epsMs, minimise: false }).verdict).toBe(expected);
        },
      ),
      { numRuns: 400 },
    );
  });
});

/**
 * Generated histories checked in the unit suite: every one decided within this many states (the
 * most seeds 1–150 take is 1,733; a sweep of seeds 1–5,000 with bench/hard-histories.ts, at most
 * a few thousand).
 */
const SEEDS = Array.from({ length: 150 }, (_, i) => i + 1);
const STATES_BOUND = 5_000;

describe('generated polling histories with cuts and lossy faults', () => {
  it('are ok, or replication-loss where the oracle rolled the key back, within a bounded number of states', () => {
    for (const seed of SEEDS) {
      const { history: generated, rollback } = pollingLockHistory(seed);
      const result = check(generated, PATTERNS.lock, { minimise: false });
      expect(rollback ? ['ok', 'replication-loss'] : ['ok'], `seed ${seed}`).toContain(result.verdict);
      expect(keyVerdict(result).statesExplored, `seed ${seed}`).toBeLessThan(STATES_BOUND);
    }
  });

  it('are not trivially legal: polls, cuts, second executions, refusals that ran and rollbacks all occur', () => {
    let polls = 0;
    let ranTwice = 0;
    let refusedButRan = 0;
    let unanswered = 0;
    let rollbacks = 0;
    for (const seed of SEEDS) {
      const { history: generated, executions, rollback } = pollingLockHistory(seed);
      const ops = generated.ops;
      // A poll: an acquire by the client whose previous operation was an acquire of the same token within 25 ms.
      polls += ops.filter(
        (o, i) =>
          o.input.op === 'acquire' &&
          ops
            .slice(0, i)
            .some((p) => p.client === o.client && p.input.op === 'acquire' && o.invokedAt - p.completedAt < 25),
      ).length;
      ranTwice += ops.filter((o) => executions.get(o.id)!.length === 2).length;
      refusedButRan += ops.filter((o) => o.outcome === 'fail' && executions.get(o.id)!.length > 0).length;
      unanswered += ops.filter((o) => o.outcome === 'info').length;
      if (rollback) rollbacks++;
    }
    // Seeds 1–150 gave thousands of polls and about 250 second executions, 130 refusals that ran,
    // 600 unanswered operations, 50 rollbacks: far from these floors.
    expect(polls).toBeGreaterThan(2_000);
    expect(ranTwice).toBeGreaterThan(100);
    expect(refusedButRan).toBeGreaterThan(50);
    expect(unanswered).toBeGreaterThan(300);
    expect(rollbacks).toBeGreaterThan(25);
  });

  it('with a planted release answered 1 for a token nobody acquired, are illegal', () => {
    for (const seed of SEEDS) {
      const { history: generated } = pollingLockHistory(seed);
      const answered = generated.ops.filter((o) => o.outcome === 'ok');
      const victim = answered[seed % answered.length];
      const ops = generated.ops.map((o) => (o === victim ? corruptLock(o) : o));
      const result = check({ ...generated, ops }, PATTERNS.lock, { minimise: false });
      expect(result.verdict, `seed ${seed}, op ${victim.id}`).toBe('illegal');
    }
  });
});

describe('the worst polling histories found, each once past the 500,000-state budget', () => {
  // Written by `npx tsx bench/hard-histories.ts --save DIR`: the generator's seed and its history.
  const dir = new URL('./fixtures/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.startsWith('polling-lock-seed'));

  it('are all here', () => expect(files.length).toBeGreaterThanOrEqual(6));

  for (const file of files) {
    it(`${file} is decided within ${STATES_BOUND.toLocaleString('en-US')} states`, () => {
      const { history: recorded } = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as {
        history: History<LockInput, LockOutput>;
      };
      const result = check(recorded, PATTERNS.lock, { minimise: false });
      const rolledBack = recorded.faults.some((f) => f.lossy);
      expect(rolledBack ? ['ok', 'replication-loss'] : ['ok']).toContain(result.verdict);
      expect(keyVerdict(result).statesExplored).toBeLessThan(STATES_BOUND);
    });
  }
});

/**
 * Lossy histories illegal as recorded, each of which once took the search past its 500,000 states:
 * 2317, 3316 and 3697 ended unknown (the relaxed search churned through lineages before the lossy
 * fault), 58, 1812 and 4533 spent the strict search's whole budget proving them illegal before the
 * relaxed one explained them; 10315 and 11478, found by a sweep of seeds 5,001–20,000 once those
 * were decided, ended unknown (one rollback had to restore a holder before an answer and end its
 * hold after it). Each holds a pair of answers no order joins without the rollback (an
 * acquire or extend answered 1, then an answer requiring the lock free, and nothing between that
 * could free it), which the hold pairs now see before any order is tried.
 */
describe('the lossy polling histories once undecided or decided only past the budget', () => {
  const dir = new URL('./fixtures/', import.meta.url);
  const LOSSY_BOUND = 1_000;
  for (const seed of [58, 1812, 2317, 3316, 3697, 4533, 10315, 11478]) {
    it(`seed ${seed} is replication-loss, the strict search decided, within ${LOSSY_BOUND.toLocaleString('en-US')} states`, () => {
      const file = new URL(`polling-lock-seed${seed}.json`, dir);
      const { history: recorded } = JSON.parse(readFileSync(file, 'utf8')) as {
        history: History<LockInput, LockOutput>;
      };
      const result = check(recorded, PATTERNS.lock, { minimise: false });
      expect(result.verdict).toBe('replication-loss');
      const key = keyVerdict(result);
      // Decided, not rescued after a strict search that ran out of budget (that note says "undecided").
      expect(key.note ?? '').not.toMatch(/undecided/);
      expect(key.statesExplored).toBeLessThan(LOSSY_BOUND);
    });
  }
});

/**
 * The same histories answered as a library answers (acquire, release and extend as booleans,
 * PATTERNS.lock's model judging them at that level): the holder lookahead must read a coarse answer
 * for what it stands for. It once read nothing from one, and seeds 1–300 took up to 225,811 states
 * (p99 31,004) where the exact answers take 1,733; a boolean true stands for the script's 1, a
 * release's false for nil or -1, and the key is decided as fast as with the exact answers.
 */
describe('generated polling histories answered as booleans', () => {
  const coarseLock = PATTERNS.lock.model as unknown as typeof lock;
  const asBooleans = (h: History<LockInput, unknown>): History<LockInput, unknown> => ({
    ...h,
    ops: h.ops.map((o) =>
      o.outcome === 'ok' ? { ...o, output: { level: 'boolean', op: o.input.op, answer: o.output === 1 } } : o,
    ),
  });

  it('are decided like the exact ones, within the same bound', () => {
    for (const seed of SEEDS) {
      const { history: generated, rollback } = pollingLockHistory(seed);
      const result = check(asBooleans(generated) as never, coarseLock, { minimise: false });
      expect(rollback ? ['ok', 'replication-loss'] : ['ok'], `seed ${seed}`).toContain(result.verdict);
      expect(keyVerdict(result).statesExplored, `seed ${seed}`).toBeLessThan(STATES_BOUND);
    }
  });

  it('with a planted release answered true for a token nobody acquired, are illegal', () => {
    for (const seed of SEEDS.slice(0, 50)) {
      const { history: generated } = pollingLockHistory(seed);
      const answered = generated.ops.filter((o) => o.outcome === 'ok');
      const victim = answered[seed % answered.length];
      const ops = generated.ops.map((o) => (o === victim ? corruptLock(o) : o));
      expect(
        check(asBooleans({ ...generated, ops }) as never, coarseLock, { minimise: false }).verdict,
        `seed ${seed}`,
      ).toBe('illegal');
    }
  });
});
