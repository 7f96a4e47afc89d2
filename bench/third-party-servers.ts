// The lock libraries of examples/third-party certified on Redis 7.0 (redlock, redsync,
// python-redis-lock, Redisson's lock), re-judged on Redis 8.2 and Valkey 8.1 at their pins' full
// budget: each pin's seed, settings, runs and time limit (suites/certify/support/third-party-pins.ts),
// every fault of the default `all`, which on these servers (they evict EVAL-loaded scripts) takes
// script-evict too. Opened as `certify --server NAME --impl ...` opens them (openerFor, a process per
// client where client-clock is drawn), each job on a cluster of the server's own binary. Prints a line
// per job and a markdown table for bench/results/servers/third-party.md; a job whose verdict is not
// the kept one leaves its counterexample under reports/third-party-servers/.
// Run: npx tsx bench/third-party-servers.ts [lanes-per-server=2] [pin-filter[,filter...]]
import fs from 'node:fs';
import path from 'node:path';
import { runJob } from '../src/certify/job.ts';
import { openerFor } from '../src/certify/openers/index.ts';
import { projectRoot } from '../src/cluster/binaries.ts';
import { parseImplSpec } from '../src/impl/impl-spec.ts';
import { PATTERNS } from '../src/patterns/index.ts';
import { certifyOptions, quietIo, removeReportRoots } from '../suites/certify/fixtures/process/job.ts';
import {
  jobVerdict,
  OTHER_SERVERS,
  type Pinned,
  pinImpl,
  pinName,
  SERVER_PINS,
} from '../suites/certify/support/third-party-pins.ts';
import { type ClusterLanes, clusterLanes } from '../suites/support/cluster-lanes.ts';

const lanesPerServer = Number(process.argv[2] ?? 2);
const filters = (process.argv[3] ?? '').split(',');
if (!Number.isInteger(lanesPerServer) || lanesPerServer < 1)
  throw new RangeError(`lanes-per-server must be a whole number ≥ 1, got ${process.argv[2]}`);
process.chdir(projectRoot); // a program pin's command and a module's path are the repository root's

interface Row {
  readonly pin: Pinned;
  readonly asked: string;
  readonly server: string;
  readonly verdict: string;
  readonly runs: number;
  readonly ops: number;
  readonly scriptEvicts: number;
  readonly seconds: number;
}

const pins = SERVER_PINS.filter((p) => filters.some((f) => pinName(p).includes(f)));
const jobs = OTHER_SERVERS.flatMap((server) => pins.map((pin) => ({ server, pin })));
console.log(
  `npx tsx bench/third-party-servers.ts ${lanesPerServer}${process.argv[3] ? ` ${process.argv[3]}` : ''}: ${jobs.length} jobs, ${lanesPerServer} cluster(s) per server`,
);
const lanes = new Map<string, ClusterLanes>();
const rows: Row[] = [];
try {
  await Promise.all(
    jobs.map(async ({ server, pin }) => {
      const options = certifyOptions({
        pattern: pin.pattern,
        seed: String(pin.seed),
        'shrink-runs': '0',
        server,
        ...(pin.set ? { set: [...pin.set] } : {}),
        ...(pin.timeLimit ? { 'time-limit': pin.timeLimit } : {}),
        ...(pin.runs ? { runs: String(pin.runs) } : {}),
        ...(pin.faults ? { faults: pin.faults.join(',') } : {}),
      });
      const pattern = PATTERNS[pin.pattern];
      const opener = openerFor(
        pattern,
        parseImplSpec(pinImpl(pin), pattern),
        options.durability,
        options.faults.includes('client-clock'),
      );
      if (!lanes.has(server)) lanes.set(server, clusterLanes(lanesPerServer, { redisServer: options.server!.binary }));
      let started = 0;
      const result = await lanes.get(server)!.run((cluster) => {
        started = performance.now();
        return runJob(options, opener, quietIo, cluster);
      });
      const verdict = jobVerdict(result);
      const t = result.outcome.tally;
      const s = result.server;
      const row: Row = {
        pin,
        asked: server,
        server: s ? `${s.name === 'valkey' ? 'Valkey' : 'Redis'} ${s.version} (${s.allocator})` : result.redisVersion,
        verdict,
        runs: t.runs,
        ops: t.ops,
        scriptEvicts: t.faultCounts['script-evict'] ?? 0,
        seconds: (performance.now() - started) / 1000,
      };
      rows.push(row);
      console.log(
        `${pinName(pin)} seed ${pin.seed} on ${server} (${row.server}): ${verdict}; ${row.runs} runs, ${row.ops} operations, script-evict ${row.scriptEvicts}, ${row.seconds.toFixed(0)} s`,
      );
      if (!result.passed) {
        console.log(`    ${[verdict, ...result.findings].join(' | ').slice(0, 600)}`);
        if (result.counterexampleFile) {
          const kept = path.join(
            projectRoot,
            'reports',
            'third-party-servers',
            `${pin.folder}-${pin.seed}-${server}.counterexample.json`,
          );
          fs.mkdirSync(path.dirname(kept), { recursive: true });
          fs.copyFileSync(result.counterexampleFile, kept);
          console.log(`    counterexample kept: ${path.relative(projectRoot, kept)}`);
        }
      }
    }),
  );
} finally {
  await Promise.all([...lanes.values()].map((l) => l.dispose()));
  removeReportRoots();
}

const order = (r: Row) => OTHER_SERVERS.indexOf(r.asked as never) * 100 + SERVER_PINS.indexOf(r.pin);
rows.sort((a, b) => order(a) - order(b));
console.log(
  '\n| library (pin) | seed | server | kept verdict (Redis 7.0.15) | verdict here | runs | operations | script-evict | seconds |',
);
console.log('| --- | ---: | --- | --- | --- | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  const name = `${pinName(r.pin)}${r.pin.set ? ` --set ${r.pin.set.join(' --set ')}` : ''}`;
  console.log(
    `| ${r.pin.library} (${name}) | ${r.pin.seed} | \`${r.asked}\`: ${r.server} | ${r.pin.verdict === 'certified' ? 'certified' : 'not certified'} | ${r.verdict} | ${r.runs} | ${r.ops} | ${r.scriptEvicts} | ${r.seconds.toFixed(0)} |`,
  );
}

// Exit rather than wait on whatever handle is still open: the reaper's exit hook stops any server a
// lane left (its sibling bench, whose first lane is the shared cluster, stayed up after its table).
process.exit(process.exitCode ?? 0);
