/**
 * Is a team's pattern as cheap as a built-in of the same shape? (issue 41, item 7.) The built-in
 * `lock` (src/patterns/lock, written by hand with every search hint) against the team-lock fixture
 * (suites/fixtures/patterns/team-lock.mjs: the same compare-and-delete lock through the pattern API's
 * core, its holder lookahead derived from the model), and against Porcupine on the same model written for it.
 *
 * Run: npx tsx bench/pattern-parity.ts [--parts check,porcupine] [--seeds 300] [--rounds 3]
 *        [--ops 20000] [--keys 200] [--runs 5] [--limit 600] [--indeterminate 0.02] [--certify-seeds 3] [--certify-runs 20]
 *
 * 1. check: the same histories checked by the built-in lock, by team-lock, by team-lock with the
 *    built-in model's `search:` hints, and by team-lock with `search: {}` (a plain search;
 *    pattern-parity/sides.ts), in one process, minimise off. Two
 *    workloads, made without the checker: --seeds one-key histories from the polling-lock oracle
 *    (suites/unit/checker/oracle/polling-lock.ts, the shape of the soak's hardest runs: polling
 *    contenders, leases running out, client-link cuts and resends, a third with a lossy rollback),
 *    and one large history (--ops over --keys, 8 clients a key, leases of 50–1,000 ms running out
 *    mid-history, 2% indeterminate; pattern-parity/lock-histories.ts). Each history --rounds times
 *    a side, the sides alternated and the order rotated each round; per history the median wall
 *    time and the states the search entered; verdicts must agree and are printed.
 * 2. certify: `chaoslua certify --pattern lock` against `--pattern suites/fixtures/patterns/team-lock.mjs`,
 *    both `--impl lua:lua/lock --runs --certify-runs --clusters 1`, seeds 1..--certify-seeds, each a
 *    fresh process (its cluster start included), alternated; medians of wall time. Needs a local
 *    redis-server and Toxiproxy; not in the default parts.
 * 3. porcupine: pattern-parity/versus-porcupine.ts (long leases that never run out; Porcupine's
 *    model has no clock).
 *
 * Prints figures; asserts nothing about speed (the machine has 2 cores and is shared).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { check } from '../src/checker/index.ts';
import type { History } from '../src/history/types.ts';
import { pollingLockHistory } from '../suites/unit/checker/oracle/polling-lock.ts';
import { lockLines, readLockLines, toJsonLines, type LockWorkload } from './pattern-parity/lock-histories.ts';
import { SIDE_NAMES, SIDES, TEAM_LOCK_FILE, type SideName } from './pattern-parity/sides.ts';
import { LONG_LEASE_MS, versusPorcupine } from './pattern-parity/versus-porcupine.ts';
import { median, quantile } from './stats.ts';

const { values } = parseArgs({
  options: {
    parts: { type: 'string', default: 'check,porcupine' },
    seeds: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '3' },
    ops: { type: 'string', default: '20000' },
    keys: { type: 'string', default: '200' },
    runs: { type: 'string', default: '5' },
    // Share of indeterminate operations in part 3's files (Porcupine keeps each open to the end).
    indeterminate: { type: 'string', default: '0.02' },
    limit: { type: 'string', default: '600' },
    'certify-seeds': { type: 'string', default: '3' },
    'certify-runs': { type: 'string', default: '20' },
  },
});
const positive = (name: string, text: string) => {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`--${name} must be a positive integer, got ${text}`);
  return n;
};
const parts = values.parts.split(',');
for (const p of parts)
  if (!['check', 'certify', 'porcupine'].includes(p))
    throw new RangeError(`--parts takes check, certify and porcupine, got ${p}`);
const seeds = positive('seeds', values.seeds);
const rounds = positive('rounds', values.rounds);
const ops = positive('ops', values.ops);
const keys = positive('keys', values.keys);

console.log(`npx tsx bench/pattern-parity.ts ${process.argv.slice(2).join(' ')}`.trim());
console.log(
  `${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

interface Sample {
  ms: number[];
  states: number;
  verdict: string;
}

/** Each history `rounds` times a side, the order of the sides rotated each round. */
function checkEach(
  histories: readonly { name: string; history: History<any, any> }[],
): Map<string, Record<SideName, Sample>> {
  const out = new Map<string, Record<SideName, Sample>>();
  for (const { history } of histories.slice(0, 3))
    for (const side of SIDE_NAMES) check(history, SIDES[side], { minimise: false }); // JIT warm-up
  for (const { name, history } of histories) {
    const row = Object.fromEntries(SIDE_NAMES.map((s) => [s, { ms: [], states: 0, verdict: '' }])) as unknown as Record<
      SideName,
      Sample
    >;
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < SIDE_NAMES.length; k++) {
        const side = SIDE_NAMES[(round + k) % SIDE_NAMES.length];
        const started = performance.now();
        const result = check(history, SIDES[side], { minimise: false });
        row[side].ms.push(performance.now() - started);
        row[side].states = result.stats.statesExplored;
        row[side].verdict = result.verdict;
      }
    }
    out.set(name, row);
  }
  return out;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function checkPart(): void {
  console.log(`\n## 1. Check cost: the same histories, ${SIDE_NAMES.join(' / ')}`);
  console.log(
    `each history ${rounds} times a side in this process, sides alternated (order rotated each round), minimise off; per history the median wall time\n`,
  );
  const polling = Array.from({ length: seeds }, (_, i) => ({
    name: `seed ${i + 1}`,
    history: pollingLockHistory(i + 1).history,
  }));
  const rows = checkEach(polling);
  const all = [...rows.values()];
  const agree = all.filter((r) => SIDE_NAMES.every((s) => r[s].verdict === r['built-in lock'].verdict)).length;
  const verdicts = (side: SideName) => {
    const count = new Map<string, number>();
    for (const r of all) count.set(r[side].verdict, (count.get(r[side].verdict) ?? 0) + 1);
    return [...count].map(([v, n]) => `${v} ${n}`).join(', ');
  };
  console.log(
    `polling-lock oracle, seeds 1–${seeds} (one key each, ${median(polling.map((p) => p.history.ops.length))} ops median):\n`,
  );
  console.log('| side | total of per-history medians | states: total / median / p99 / max | verdicts |');
  console.log('| --- | ---: | --- | --- |');
  for (const side of SIDE_NAMES) {
    const states = all.map((r) => r[side].states);
    console.log(
      `| ${side} | ${sum(all.map((r) => median(r[side].ms))).toFixed(0)} ms | ${sum(states).toLocaleString('en-US')} / ${median(states)} / ${quantile(states, 0.99)} / ${Math.max(...states).toLocaleString('en-US')} | ${verdicts(side)} |`,
    );
  }
  console.log(`\nverdicts agree on ${agree} of ${all.length} histories`);
  for (const side of SIDE_NAMES.slice(1)) {
    const ratio = (r: Record<SideName, Sample>) => r[side].states / Math.max(1, r['built-in lock'].states);
    const ratios = all.map(ratio);
    const worst = [...rows.entries()].sort((a, b) => ratio(b[1]) - ratio(a[1])).slice(0, 5);
    console.log(
      `${side} / built-in, states per history: median ${median(ratios).toFixed(2)}x, p90 ${quantile(ratios, 0.9).toFixed(2)}x, max ${Math.max(...ratios).toFixed(2)}x; ` +
        `more than 2x on ${ratios.filter((x) => x > 2).length} histories; the five worst: ` +
        worst
          .map(
            ([name, r]) =>
              `${name} ${r[side].states.toLocaleString('en-US')} vs ${r['built-in lock'].states.toLocaleString('en-US')} states, ${median(r[side].ms).toFixed(1)} vs ${median(r['built-in lock'].ms).toFixed(1)} ms`,
          )
          .join('; '),
    );
  }

  const w: LockWorkload = { ops, keys, seed: 1, leasesMs: [50, 100, 200, 1000], clients: 8, indeterminate: 0.02 };
  // Through the file format, as part 3 reads it.
  const large = readLockLines(toJsonLines(lockLines(w)));
  const [big] = checkEach([{ name: 'large', history: large }]).values();
  console.log(
    `\nlarge history: ${large.ops.length} ops over ${keys} keys, 8 clients a key, leases ${w.leasesMs.join('/')} ms (running out mid-history), 2% indeterminate, 1% refused, seed 1:\n`,
  );
  console.log('| side | median | runs (ms) | states | verdict |');
  console.log('| --- | ---: | --- | ---: | --- |');
  for (const side of SIDE_NAMES)
    console.log(
      `| ${side} | ${median(big[side].ms).toFixed(0)} ms | ${big[side].ms.map((ms) => ms.toFixed(0)).join(', ')} | ${big[side].states.toLocaleString('en-US')} | ${big[side].verdict} |`,
    );
}

function certifyPart(): void {
  const certifySeeds = positive('certify-seeds', values['certify-seeds']);
  const certifyRuns = positive('certify-runs', values['certify-runs']);
  const root = path.join(import.meta.dirname, '..');
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-bench-parity-'));
  const patterns = ['lock', path.relative(root, TEAM_LOCK_FILE.pathname)];
  console.log(`\n## 2. Certify cost: ${patterns.join(' vs ')}`);
  console.log(
    `node bin/chaoslua.mjs certify --pattern P --impl lua:lua/lock --runs ${certifyRuns} --clusters 1 --seed S --no-corpus; seeds 1–${certifySeeds}; one job at a time, each a fresh process (cluster start included), order alternated per seed\n`,
  );
  const seconds = new Map<string, number[]>(patterns.map((p) => [p, []]));
  try {
    for (let seed = 1; seed <= certifySeeds; seed++) {
      for (const pattern of seed % 2 ? patterns : [...patterns].reverse()) {
        const args = [
          'bin/chaoslua.mjs',
          'certify',
          '--pattern',
          pattern,
          '--impl',
          'lua:lua/lock',
          '--runs',
          String(certifyRuns),
          '--clusters',
          '1',
          '--seed',
          String(seed),
          '--no-corpus',
          '--report',
          reports,
        ];
        const started = performance.now();
        const job = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
        const s = (performance.now() - started) / 1000;
        seconds.get(pattern)!.push(s);
        const verdict =
          job.status === 0
            ? 'certified'
            : `exit ${job.status}: ${(job.stderr || job.stdout).trim().split('\n').at(-1)}`;
        console.log(`seed ${seed}, ${pattern}: ${verdict}, ${s.toFixed(1)} s`);
      }
    }
  } finally {
    fs.rmSync(reports, { recursive: true, force: true });
  }
  console.log('\n| pattern | median | per seed |');
  console.log('| --- | ---: | --- |');
  for (const [p, s] of seconds)
    console.log(`| ${p} | ${median(s).toFixed(1)} s | ${s.map((x) => x.toFixed(1)).join(', ')} |`);
  const [a, b] = patterns.map((p) => median(seconds.get(p)!));
  console.log(`\nteam-lock / built-in: ${(b / a).toFixed(2)}x`);
}

if (parts.includes('check')) checkPart();
if (parts.includes('certify')) certifyPart();
if (parts.includes('porcupine')) {
  const indeterminate = Number(values.indeterminate);
  if (!(indeterminate >= 0 && indeterminate <= 0.5))
    throw new RangeError(`--indeterminate must be a share from 0 to 0.5, got ${values.indeterminate}`);
  const w: LockWorkload = { ops, keys, seed: 1, leasesMs: [LONG_LEASE_MS], clients: 8, indeterminate };
  await versusPorcupine(w, positive('runs', values.runs), positive('limit', values.limit) * 1000);
}
