/**
 * How fast the checker decides a large legal history, and how fast it finds a planted violation.
 * Run: npx tsx bench/checker.ts [--ops 100000] [--keys 1000] [--runs 7] [--seed 1] [--show]
 * One warm-up check, then medians of --runs runs of each. Prints figures and the command that
 * reproduces them; asserts nothing about speed.
 */
import { parseArgs } from 'node:util';
import { check, linearHistory } from '../src/checker/index.ts';
import type { PlannedOp, PlannedOutcome } from '../src/checker/index.ts';
import type { History, OpRecord } from '../src/history/types.ts';
import { idempotency } from '../src/patterns/idempotency/model.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../src/patterns/idempotency/model.ts';
import { PATTERNS } from '../src/patterns/index.ts';

const { values } = parseArgs({
  options: {
    ops: { type: 'string', default: '100000' },
    keys: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '7' },
    seed: { type: 'string', default: '1' },
    show: { type: 'boolean', default: false },
  },
});
const totalOps = positive('ops', values.ops);
const keyCount = positive('keys', values.keys);
const runs = positive('runs', values.runs);
const seed = positive('seed', values.seed);

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`--${name} must be a positive integer, got ${text}`);
  return value;
}

/** mulberry32: small, seeded, good enough to make the workload reproducible. */
function rng(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Instants 9–11 ms apart and intervals reaching at most 35 ms either side of them: 9 operations in
// flight together would need 8 gaps within 70 ms, so at most 8 are. Leases of 50–1000 ms run out
// mid-history, so expiry windows are part of the search.
const GAP_MIN = 9;
const GAP_SPREAD = 3;
const REACH = 35;

function plan(random: () => number): PlannedOp<IdempotencyInput>[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const owners = ['o1', 'o2', 'o3'];
  const planned: PlannedOp<IdempotencyInput>[] = [];
  const perKey = Math.ceil(totalOps / keyCount);
  for (let k = 0; k < keyCount; k++) {
    let at = random() * 100;
    for (let i = 0; i < perKey && planned.length < totalOps; i++) {
      at += GAP_MIN + Math.floor(random() * GAP_SPREAD);
      const owner = pick(owners);
      const roll = random();
      const input: IdempotencyInput =
        roll < 0.4
          ? { op: 'register', fingerprint: pick(['f1', 'f2']), owner, leaseMs: pick([50, 100, 200, 1000]) }
          : roll < 0.65
            ? {
                op: 'complete',
                owner,
                status: pick(['200', '201']),
                body: pick(['a', 'b']),
                ttlMs: pick([100, 300, 5000]),
              }
            : roll < 0.8
              ? { op: 'renew', owner, leaseMs: pick([50, 100, 200]) }
              : { op: 'release', owner };
      const outcomeRoll = random();
      const outcome: PlannedOutcome =
        outcomeRoll < 0.97 ? 'ok' : outcomeRoll < 0.98 ? 'info-applied' : outcomeRoll < 0.99 ? 'info-lost' : 'fail';
      planned.push({
        key: `idem:v1:{bench:${k}}`,
        client: owners.indexOf(owner),
        input,
        at: Math.round(at),
        leadMs: Math.floor(random() * (REACH + 1)),
        lagMs: Math.floor(random() * (REACH + 1)),
        outcome,
      });
    }
  }
  return planned;
}

function maxInFlight(history: History): number {
  const byKey = new Map<string, [number, number][]>();
  for (const op of history.ops) {
    const events = byKey.get(op.key) ?? [];
    events.push([op.invokedAt, 1], [op.completedAt, -1]);
    byKey.set(op.key, events);
  }
  let max = 0;
  for (const events of byKey.values()) {
    events.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    let now = 0;
    for (const [, delta] of events) max = Math.max(max, (now += delta));
  }
  return max;
}

/**
 * Plants a one-winner violation that is illegal by construction, without asking the checker: two
 * registers by owners no other operation uses, both answered fresh, with one and the same 10 ms
 * interval, 6 s after the last operation of a key in the second half (past every lease and TTL the
 * workload sets, 5 s at most). Whichever takes effect first leaves the key pending with a 1,000 ms
 * lease, which cannot run out within their 10 ms (nor within the checker's 25 ms tolerance either
 * side); nothing else can empty the key in between (only the record's owner may release it, and
 * that owner does nothing else; an indeterminate operation of another owner leaves a record it does
 * not own as it is), so the second must have answered hit.
 */
function plantViolation(history: History<IdempotencyInput, IdempotencyOutput>): {
  history: History<IdempotencyInput, IdempotencyOutput>;
  key: string;
} {
  const keys = [...new Set(history.ops.map((op) => op.key))];
  const key = keys[Math.floor(keys.length / 2)];
  const end = Math.max(...history.ops.filter((op) => op.key === key).map((op) => op.completedAt));
  let id = Math.max(...history.ops.map((op) => op.id));
  const fresh = (owner: string): OpRecord<IdempotencyInput, IdempotencyOutput> => ({
    type: 'op',
    id: ++id,
    client: 1000 + id,
    key,
    input: { op: 'register', fingerprint: 'f1', owner, leaseMs: 1000 },
    invokedAt: end + 6000,
    completedAt: end + 6010,
    outcome: 'ok',
    output: ['fresh'],
  });
  return { history: { ...history, ops: [...history.ops, fresh('planted-a'), fresh('planted-b')] }, key };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Wall time, and CPU time of this process (less distorted when other processes share the cores). */
function time<T>(fn: () => T): { result: T; ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = fn();
  const used = process.cpuUsage(cpu);
  return { result, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

function figures(runsOf: { ms: number; cpuMs: number }[]): string {
  return (
    `median ${median(runsOf.map((r) => r.ms)).toFixed(0)} ms wall, ${median(runsOf.map((r) => r.cpuMs)).toFixed(0)} ms CPU ` +
    `(wall per run: ${runsOf.map((r) => r.ms.toFixed(0)).join(', ')})`
  );
}

console.log(
  `npx tsx bench/checker.ts --ops ${totalOps} --keys ${keyCount} --runs ${runs} --seed ${seed}${values.show ? ' --show' : ''}`,
);
console.log(`one warm-up check, then the median of ${runs} runs each; node ${process.version}`);
const legal = linearHistory(idempotency, plan(rng(seed)));
const outcomes = legal.ops.reduce<Record<string, number>>((acc, op) => {
  acc[op.outcome] = (acc[op.outcome] ?? 0) + 1;
  return acc;
}, {});
console.log(
  `workload: ${legal.ops.length} ops over ${keyCount} keys, at most ${maxInFlight(legal)} in flight per key, ` +
    `outcomes ${JSON.stringify(outcomes)}, seed ${seed}`,
);

check(legal, PATTERNS.idempotency); // warm-up: JIT, not measured
const legalRuns = Array.from({ length: runs }, () => time(() => check(legal, PATTERNS.idempotency)));
const last = legalRuns[legalRuns.length - 1].result;
console.log(`legal: verdict ${last.verdict}, ${figures(legalRuns)}, ${last.stats.statesExplored} states`);

const planted = plantViolation(legal);
const illegal = planted.history;
console.log(
  `planted: two fresh registers in one 10 ms interval on ${planted.key}, 6 s after its last operation (illegal by construction)`,
);
for (const minimise of [false, true]) {
  const illegalRuns = Array.from({ length: runs }, () =>
    time(() => check(illegal, PATTERNS.idempotency, { minimise })),
  );
  const result = illegalRuns[illegalRuns.length - 1].result;
  const violation = result.violations[0];
  console.log(
    `illegal (minimise ${minimise ? 'on' : 'off'}): verdict ${result.verdict}, ${figures(illegalRuns)}, ` +
      `${violation?.invariant ?? 'no violation'} on ${violation?.key ?? '-'}, sub-history ${violation?.subHistory.length ?? 0} ops, ` +
      `${result.stats.statesExplored} + ${result.stats.minimiseStatesExplored} minimise states`,
  );
}
if (values.show) {
  const { describeViolation } = await import('../src/checker/index.ts');
  console.log(describeViolation(check(illegal, PATTERNS.idempotency).violations[0]));
}
