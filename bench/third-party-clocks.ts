// Each third-party library of examples/third-party re-judged under the server clock faults: the
// pinned configuration of suites/certify/support/third-party-pins.ts (its seed, settings, runs), with
// its faults plus `clocks` (clock-jump, clock-strobe, clock-drift on the cluster's nodes). Prints, per
// library, the kept verdict (the default faults) beside the verdict under clocks, the invariants
// named, the clock losses explained and the seconds, and a markdown table to paste into
// bench/results/third-party-clocks.md.
// Run: npx tsx bench/third-party-clocks.ts [lanes=4] [folder-filter[,filter...]]
import { runJob } from '../src/certify/job.ts';
import { openerFor } from '../src/certify/openers/index.ts';
import { projectRoot } from '../src/cluster/binaries.ts';
import { parseImplSpec } from '../src/impl/impl-spec.ts';
import { PATTERNS } from '../src/patterns/index.ts';
import { certifyOptions, quietIo, removeReportRoots } from '../suites/certify/fixtures/process/job.ts';
import { jobVerdict, PINNED, type Pinned, pinImpl } from '../suites/certify/support/third-party-pins.ts';
import { clusterLanes } from '../suites/support/cluster-lanes.ts';

process.chdir(projectRoot); // a program pin's command and a module's path are the repository root's
const laneCount = Number(process.argv[2] ?? 4);
const filter = process.argv[3] ?? '';
if (!Number.isInteger(laneCount) || laneCount < 1)
  throw new RangeError(`lanes must be a whole number ≥ 1, got ${process.argv[2]}`);

const kept = (p: Pinned) =>
  p.verdict === 'certified'
    ? 'certified'
    : 'invariant' in p.verdict
      ? `rejected (${p.verdict.invariant.join(' or ')})`
      : `not certified (${p.verdict.finding})`;

interface Row {
  readonly pin: Pinned;
  readonly verdict: string;
  readonly clockLosses: number;
  readonly lossNote: string;
  readonly seconds: number;
  readonly runs: number;
}

const lanes = clusterLanes(laneCount);
const filters = filter.split(',');
const pins = PINNED.filter((p) => filters.some((f) => `${p.folder}/${p.module}`.includes(f)));
console.log(
  `npx tsx bench/third-party-clocks.ts ${laneCount}${filter ? ` ${filter}` : ''}: ${pins.length} pins, ${laneCount} clusters at once`,
);
const rows: Row[] = [];
try {
  await Promise.all(
    pins.map(async (pin) => {
      const faults = [...(pin.faults ?? ['all']), 'clocks'].join(',');
      const options = certifyOptions({
        pattern: pin.pattern,
        seed: String(pin.seed),
        'shrink-runs': '0',
        faults,
        ...(pin.set ? { set: [...pin.set] } : {}),
        ...(pin.timeLimit ? { 'time-limit': pin.timeLimit } : {}),
        ...(pin.runs ? { runs: String(pin.runs) } : {}),
      });
      // Opened as `certify --impl` opens it: a program with a process per client under the clock preload
      // when client-clock is drawn and its clock can be moved (a Go program keeps one process, not reached).
      const pattern = PATTERNS[pin.pattern];
      const opener = openerFor(
        pattern,
        parseImplSpec(pinImpl(pin), pattern),
        options.durability,
        options.faults.includes('client-clock'),
      );
      let started = 0;
      const result = await lanes.run((cluster) => {
        started = performance.now();
        return runJob(options, opener, quietIo, cluster);
      });
      const verdict = jobVerdict(result);
      const tally = result.outcome.tally;
      const row: Row = {
        pin,
        verdict,
        clockLosses: tally.clockLosses ?? 0,
        lossNote: tally.clockLossNotes?.[0] ?? '',
        seconds: (performance.now() - started) / 1000,
        runs: tally.runs,
      };
      rows.push(row);
      console.log(
        `${pin.folder}/${pin.module} seed ${pin.seed} --faults ${faults}: ${verdict} (kept: ${kept(pin)}); ${row.runs} runs, ${row.clockLosses} clock losses, ${row.seconds.toFixed(0)} s`,
      );
      if (result.clientClockReach) console.log(`    client clocks: ${result.clientClockReach}`);
      if (!result.passed) console.log(`    ${[verdict, ...result.findings].join(' | ').slice(0, 400)}`);
      if (row.lossNote) console.log(`    first clock loss: ${row.lossNote.slice(0, 400)}`);
    }),
  );
} finally {
  await lanes.dispose();
  removeReportRoots();
}

rows.sort((a, b) => PINNED.indexOf(a.pin) - PINNED.indexOf(b.pin));
console.log(
  '\n| library (pin) | pattern | seed | kept verdict (default faults) | under + clocks | runs | clock losses | seconds |',
);
console.log('| --- | --- | ---: | --- | --- | ---: | ---: | ---: |');
for (const r of rows) {
  const name = `${r.pin.folder}/${r.pin.module}${r.pin.set ? ` --set ${r.pin.set.join(' --set ')}` : ''}`;
  console.log(
    `| ${name} | ${r.pin.pattern} | ${r.pin.seed} | ${kept(r.pin)} | ${r.verdict} | ${r.runs} | ${r.clockLosses} | ${r.seconds.toFixed(0)} |`,
  );
}

// The first lane is the shared cluster, which no dispose() above stops (its users share it): exit,
// and the reaper's exit hook stops it with everything else still running. Without this the bench
// printed its table and then stayed up with its clusters.
process.exit(process.exitCode ?? 0);
