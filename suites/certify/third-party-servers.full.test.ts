import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/certify/job.ts';
import { openerFor } from '../../src/certify/openers/index.ts';
import { parseImplSpec } from '../../src/impl/impl-spec.ts';
import { PATTERNS } from '../../src/patterns/index.ts';
import { type ClusterLanes, clusterLanes } from '../support/cluster-lanes.ts';
import { behaviourFindings, certifyOptions, quietIo, removeReportRoots } from './fixtures/process/job.ts';
import { OTHER_SERVERS, pinImpl, pinName, SERVER_PINS, THIRD_PARTY } from './support/third-party-pins.ts';

// The lock libraries certified on Redis 7.0 (redlock, redsync, python-redis-lock, Redisson's lock)
// on Redis 8.2 and Valkey 8.1, where `all` takes script-evict too: each pin's seed and settings,
// opened as `certify --server NAME --impl ...` opens it, and no broken invariant and no finding about
// its behaviour. A reduced budget, RUNS runs each instead of the pin's 12 to 40: test:full must stay
// inside CI's 60 minutes, so this file holds the behaviour on each server and the evidence rule (which
// a few runs cannot meet) is left out; the full-budget verdicts are bench/third-party-servers.ts's
// (bench/results/servers/third-party.md). Not installed is a failure, never a skip. The file took 81 s
// (vitest 80 s) on 2026-12-07, alone on this 2-core machine with others' jobs beside it.
const RUNS = 3;

// Two clusters per server, four jobs at once (the machine has two cores; the jobs mostly wait on
// faults, heals and leases), the longest pin first so the file lasts about its longest queue.
const lanes = new Map<string, ClusterLanes>();
const LONGEST_FIRST = ['python-redis-lock', 'redsync', 'redisson', 'redlock'].map(
  (folder) => SERVER_PINS.find((p) => p.folder === folder)!,
);
afterAll(async () => {
  await Promise.all([...lanes.values()].map((l) => l.dispose()));
  removeReportRoots();
});

describe(`third-party lock libraries on the other servers (${RUNS} runs each, every fault)`, () => {
  it('re-judges the four lock libraries, each on both servers', () => {
    expect(new Set(SERVER_PINS.map((p) => p.folder))).toEqual(new Set(LONGEST_FIRST.map((p) => p.folder)));
    expect(SERVER_PINS.every((p) => p.verdict === 'certified')).toBe(true);
  });
  for (const pin of LONGEST_FIRST) {
    for (const server of OTHER_SERVERS) {
      it.concurrent(`${pinName(pin)} on ${server}: no invariant broken, no finding (seed ${pin.seed})`, async () => {
        const installed = pin.installed ?? path.join('node_modules', pin.library, 'package.json');
        expect(
          fs.existsSync(path.join(THIRD_PARTY, pin.folder, installed)),
          `examples/third-party/${pin.folder} has no ${installed}: run scripts/bootstrap-examples.sh`,
        ).toBe(true);
        const options = certifyOptions({
          pattern: pin.pattern,
          seed: String(pin.seed),
          runs: String(RUNS),
          'shrink-runs': '0',
          server,
          ...(pin.set ? { set: [...pin.set] } : {}),
          ...(pin.timeLimit ? { 'time-limit': pin.timeLimit } : {}),
          ...(pin.faults ? { faults: pin.faults.join(',') } : {}),
        });
        const pattern = PATTERNS[pin.pattern];
        const opener = openerFor(
          pattern,
          parseImplSpec(pinImpl(pin), pattern),
          options.durability,
          options.faults.includes('client-clock'),
        );
        if (!lanes.has(server)) lanes.set(server, clusterLanes(2, { redisServer: options.server!.binary }));
        const result = await lanes.get(server)!.run((cluster) => runJob(options, opener, quietIo, cluster));
        const violated = result.invariants.filter((s) => s.violations.length > 0).map((s) => s.invariant);
        console.log(
          `${pinName(pin)} on ${server}: ${result.outcome.tally.runs} runs, ${result.outcome.tally.ops} operations, faults ${JSON.stringify(result.outcome.tally.faultCounts)}; violated ${JSON.stringify(violated)}; findings ${JSON.stringify(result.findings)}`,
        );
        // The job ran on the server asked for, which evicts EVAL-loaded scripts (so script-evict was in its faults).
        expect(result.server?.name).toBe(server.split('-')[0]);
        expect(result.server?.version.startsWith(server.split('-')[1])).toBe(true);
        expect(result.server?.features.evictsScripts).toBe(true);
        expect(result.outcome.tally.runs).toBe(RUNS);
        expect(violated).toEqual([]);
        expect(behaviourFindings(result), result.findings.join(' | ')).toEqual([]);
      }, 600_000);
    }
  }
});
