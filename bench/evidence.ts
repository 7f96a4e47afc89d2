// Evidence per run: how often one run of the reference witnesses each transition a certificate
// needs, and how many acknowledged outcomes each operation gets per run. From the per-run rate p
// of a transition, (1 - p)^n is the chance n runs never witness it: the budget the evidence
// thresholds (src/certify/evidence.ts) need, and the margin the default budget has.
// Run: npx tsx bench/evidence.ts [pattern=idempotency] [runs=40] [seed=1] [faults=all] [clients] [keys]
import { LocalCluster } from '../src/cluster/local.ts';
import { jobChaosOptions, MAX_CLIENTS } from '../src/certify/chaos-options.ts';
import { requiredTransitions, tallyOperations } from '../src/certify/evidence.ts';
import { luaDirOpener, referenceScriptsDir } from '../src/certify/openers/lua-dir.ts';
import { parseFaultList } from '../src/generator/index.ts';
import { patternNamed } from '../src/patterns/index.ts';
import { coverage } from '../src/report/coverage.ts';
import { chaos, type ChaosContext } from '../src/certify/chaos.ts';

const pattern = patternNamed(process.argv[2] ?? 'idempotency', 'bench/evidence.ts');
const runs = Number(process.argv[3] ?? 40);
const seed = Number(process.argv[4] ?? 1);
const faults = parseFaultList(process.argv[5] ?? 'all');
const clients = process.argv[6] ? Number(process.argv[6]) : undefined;
const keys = process.argv[7] ? Number(process.argv[7]) : undefined;
const { model } = pattern;
console.log(
  `npx tsx bench/evidence.ts ${[pattern.name, runs, seed, process.argv[5] ?? 'all', ...process.argv.slice(6, 8)].join(' ')}`,
);
console.log(
  `${runs} runs of the reference, no shrinking, faults ${process.argv[5] ?? 'all'}, clients ${clients ?? 'default'}, keys ${keys ?? 'default'}`,
);
const required = requiredTransitions(pattern, faults);

const witnessedRuns = new Map<string, number>(required.map((t) => [t, 0]));
const okPerRun = new Map<string, number[]>();
const cluster = await LocalCluster.start();
try {
  const dir = referenceScriptsDir(pattern.name);
  const opened = await luaDirOpener(pattern, dir, `lua:${dir}`)(cluster, MAX_CLIENTS);
  const onRun: ChaosContext['onRun'] = (_, last) => {
    if (last.shrinking) return;
    const rows = new Map(coverage(last.history, model, pattern.transitions).rows.map((r) => [r.transition, r.total]));
    for (const t of required) if ((rows.get(t) ?? 0) > 0) witnessedRuns.set(t, witnessedRuns.get(t)! + 1);
    for (const o of tallyOperations(pattern, [last.history])) okPerRun.set(o.op, [...(okPerRun.get(o.op) ?? []), o.ok]);
  };
  const outcome = await chaos(
    { cluster, subjects: opened.subjects, pattern, onRun },
    jobChaosOptions({
      runs,
      seed,
      faults,
      timeLimitMs: 3_600_000,
      shrinkRuns: 0,
      nodeTimeoutMs: cluster.options.nodeTimeoutMs,
      clients,
      keys,
    }),
  );
  await opened.close();
  const judged = outcome.tally.runs;
  console.log(
    `evidence ${pattern} seed ${seed} faults ${process.argv[5] ?? 'all'}${clients ? ` clients ${clients}` : ''}${keys ? ` keys ${keys}` : ''}: ${judged} runs judged, ${outcome.tally.discarded} discarded, ${outcome.failure ? 'FAILED' : 'no failure'}`,
  );
  for (const [t, n] of witnessedRuns) {
    const p = n / judged;
    const needed = p >= 1 ? 1 : p <= 0 ? Infinity : Math.ceil(Math.log(1e-3) / Math.log(1 - p));
    console.log(
      `  ${t.padEnd(34)} witnessed in ${n}/${judged} runs (p=${p.toFixed(2)}); runs for a miss chance < 0.1%: ${needed}; miss chance in 40 runs: ${((1 - p) ** 40 * 100).toPrecision(2)}%`,
    );
  }
  for (const [op, oks] of okPerRun) {
    const sum = oks.reduce((a, b) => a + b, 0);
    console.log(
      `  ${op.padEnd(10)} ok per run: mean ${(sum / oks.length).toFixed(1)}, min ${Math.min(...oks)}, zero in ${oks.filter((n) => n === 0).length}/${oks.length} runs; total ${sum}`,
    );
  }
} finally {
  await cluster.dispose();
}
