// Time to certify the reference implementation with the CLI's defaults (40 runs, every fault),
// after the cluster is ready; median over rounds. Run: npx tsx bench/certify.ts [rounds=1] [pattern]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jobOptions } from '../src/cli/chaos-flags.ts';
import { runJob } from '../src/certify/job.ts';
import { luaDirOpener, referenceScriptsDir } from '../src/certify/openers/lua-dir.ts';
import { LocalCluster } from '../src/cluster/local.ts';
import type { PatternName } from '../src/patterns/index.ts';
import { median } from './stats.ts';

const rounds = Number(process.argv[2] ?? 1);
const pattern = (process.argv[3] ?? 'idempotency') as PatternName;
console.log(`npx tsx bench/certify.ts ${rounds} ${pattern}`);
console.log(`certify with the CLI's defaults (40 runs, every fault), seeds 1001..${1000 + rounds}, ${rounds} round(s) after the cluster is ready; median`);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-bench-certify-'));
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
const cluster = await LocalCluster.start();
const seconds: number[] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    const options = jobOptions('certify', { pattern, seed: String(1000 + round), report: reports });
    const dir = referenceScriptsDir(options.pattern.name);
    const t0 = performance.now();
    const result = await runJob(options, luaDirOpener(options.pattern, dir, `lua:${dir}`), quiet, cluster);
    seconds.push((performance.now() - t0) / 1000);
    console.log(`round ${round}: ${result.passed ? 'certified' : 'NOT certified'} in ${seconds.at(-1)!.toFixed(1)} s (${result.outcome.tally.runs} runs, ${result.outcome.tally.ops} ops)`);
  }
  console.log(`median of ${rounds}: ${median(seconds).toFixed(1)} s to certify ${pattern} with the defaults`);
} finally {
  await cluster.dispose();
  fs.rmSync(reports, { recursive: true, force: true });
}
