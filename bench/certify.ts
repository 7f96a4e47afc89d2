// A default certify (40 runs, every fault) of each pattern's reference on 1 cluster and on N at once
// (--clusters), alternated in one run so both see the same machine: the wall time a user waits,
// cluster start and teardown included; median over rounds, and the ratio of the medians.
// Run: npx tsx bench/certify.ts [rounds=1] [patterns=all, comma list] [clusters=1,auto]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jobOptions } from '../src/cli/chaos-flags.ts';
import { runJob } from '../src/certify/job.ts';
import { luaDirOpener, referenceScriptsDir } from '../src/certify/openers/lua-dir.ts';
import { autoClusters } from '../src/cluster/capacity.ts';
import { PATTERN_NAMES, type PatternName } from '../src/patterns/index.ts';
import { median } from './stats.ts';

const rounds = Number(process.argv[2] ?? 1);
const patterns = (
  process.argv[3] && process.argv[3] !== 'all' ? process.argv[3].split(',') : PATTERN_NAMES
) as PatternName[];
const counts = (process.argv[4] ?? '1,auto').split(',').map((c) => (c === 'auto' ? autoClusters() : Number(c)));
console.log(`npx tsx bench/certify.ts ${process.argv.slice(2).join(' ')}`);
console.log(
  `certify of each reference with the CLI's defaults (40 runs, every fault) on ${counts.join(' and ')} cluster(s), alternated; seeds 1001..${1000 + rounds}; wall time with cluster start and teardown; median of ${rounds}`,
);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-bench-certify-'));
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
const seconds = new Map<string, number[]>();
try {
  for (let round = 1; round <= rounds; round++) {
    for (const pattern of patterns) {
      // Alternate which count goes first, so neither always runs on the warmer machine.
      const order = round % 2 === 1 ? counts : [...counts].reverse();
      for (const clusters of order) {
        const options = jobOptions('certify', {
          pattern,
          seed: String(1000 + round),
          report: reports,
          clusters: String(clusters),
        });
        const dir = referenceScriptsDir(options.pattern.name);
        const t0 = performance.now();
        const result = await runJob(options, luaDirOpener(options.pattern, dir, `lua:${dir}`), quiet);
        const s = (performance.now() - t0) / 1000;
        seconds.set(`${pattern} ${clusters}`, [...(seconds.get(`${pattern} ${clusters}`) ?? []), s]);
        console.log(
          `round ${round}, ${pattern}, ${clusters} cluster(s): ${result.passed ? 'certified' : `NOT certified (${result.findings[0] ?? 'a violation'})`} in ${s.toFixed(1)} s (${result.outcome.tally.runs} runs, ${result.outcome.tally.ops} ops)`,
        );
      }
    }
  }
  console.log(`\n| pattern | ${counts.map((c) => `${c} cluster(s)`).join(' | ')} | ratio |`);
  console.log(`| --- | ${counts.map(() => '---:').join(' | ')} | ---: |`);
  for (const pattern of patterns) {
    const m = counts.map((c) => median(seconds.get(`${pattern} ${c}`)!));
    console.log(
      `| ${pattern} | ${m.map((s) => `${s.toFixed(1)} s`).join(' | ')} | ${(m[0] / m.at(-1)!).toFixed(2)}x |`,
    );
  }
} finally {
  fs.rmSync(reports, { recursive: true, force: true });
}
