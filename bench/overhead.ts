// Harness overhead: raw register_or_get throughput of the reference client with 64 calls in flight,
// against operations per second executed by the runner (64 logical clients, faults off) and then
// checked by the checker, on the same connection, alternated over several rounds; medians.
// Run: npx tsx bench/overhead.ts [opsPerRound=20000] [rounds=3]
import { check } from '../src/checker/index.ts';
import { LocalCluster } from '../src/cluster/local.ts';
import type { ClientStep, Schedule } from '../src/plan/schedule.ts';
import { runSchedule } from '../src/runner/run.ts';
import { createReferenceSubject } from '../src/impl/reference.ts';
import { median } from './stats.ts';
import { PATTERNS } from '../src/patterns/index.ts';

const total = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 3);
const inFlight = 64;
const keys = 1_000;
console.log(`npx tsx bench/overhead.ts ${total} ${rounds}`);
console.log(
  `${total} register calls per round over ${keys} keys, ${inFlight} in flight: raw vs the runner and checker, alternated over ${rounds} rounds, faults off; medians`,
);
const cluster = await LocalCluster.start();
const redis = cluster.connect();
try {
  const subject = await createReferenceSubject('idempotency', redis, { namespace: 'bench' });
  const input = (c: number, i: number) => ({
    op: 'register' as const,
    fingerprint: 'fp',
    owner: `c${c}a${i}`,
    leaseMs: 60_000,
  });
  const raw: number[] = [];
  const harness: number[] = [];
  const checkMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Raw: 64 loops calling the client back to back.
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async (_, c) => {
        for (let i = next++; i < total; i = next++) await subject.invoke(`raw-${round}:k${i % keys}`, input(c, i));
      }),
    );
    raw.push(total / ((performance.now() - t0) / 1000));

    // Harness: the same work as a schedule of 64 logical clients, executed by the runner, then checked.
    const perClient = Math.ceil(total / inFlight);
    const clients: ClientStep[][] = Array.from({ length: inFlight }, (_, c) =>
      Array.from({ length: perClient }, (_, i) => ({
        type: 'op' as const,
        key: (c * perClient + i) % keys,
        input: input(c, i),
      })),
    );
    const schedule: Schedule = { pattern: 'idempotency', keys, clients, faults: [] };
    const t1 = performance.now();
    const run = await runSchedule(schedule, {
      cluster,
      subjects: Array(inFlight).fill(subject),
      namespace: `harness-${round}`,
      nodeTimeoutMs: 1_000,
      opTimeoutMs: 30_000,
    });
    const t2 = performance.now();
    const result = check(run.history, PATTERNS.idempotency);
    const t3 = performance.now();
    if (result.verdict !== 'ok') throw new Error(`benchmark history judged ${result.verdict}`);
    harness.push((perClient * inFlight) / ((t3 - t1) / 1000));
    checkMs.push(t3 - t2);
    console.log(
      `round ${round + 1}: raw ${raw[round].toFixed(0)}/s, runner+checker ${harness[round].toFixed(0)}/s (check ${(t3 - t2).toFixed(0)} ms)`,
    );
  }
  const ratio = median(harness) / median(raw);
  console.log(
    `median of ${rounds}: raw ${median(raw).toFixed(0)} ops/s, runner+checker ${median(harness).toFixed(0)} ops/s, kept ${(ratio * 100).toFixed(0)}% (check ${median(checkMs).toFixed(0)} ms per ${total} ops)`,
  );
} finally {
  redis.disconnect();
  await cluster.dispose();
}
