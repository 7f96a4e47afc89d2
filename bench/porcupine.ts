/**
 * chaoslua against Porcupine (v1.3.1, the Go module) on the same histories, side by side in one
 * run: Porcupine's 102 etcd logs (in total), its kv c50-ok log, and a synthetic kv history
 * (100,000 operations over 1,000 keys, <= 8 in flight per key, 2% indeterminate) written in
 * Porcupine's kv format so both read the same file.
 *
 * Run: npx tsx bench/porcupine.ts [--runs 5] [--limit 600] [--seed 1] [--ops 100000] [--keys 1000]
 *
 * Builds bench/porcupine/ with `go build` into bench/porcupine/.build/ (the module is fetched from
 * the Go module proxy on first build). Each side runs in its own process and times itself: wall time
 * of reading and checking every file of the workload, per run; medians of --runs runs. chaoslua is
 * timed twice: deciding only (minimise off, which is all Porcupine does) and as `chaoslua check`
 * runs (each illegal key also delta-debugged to a minimal sub-history). A side that has not
 * finished its runs within --limit seconds is stopped and reported as such. Verdicts of the two
 * sides are compared; figures are printed, nothing about speed is asserted.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { syntheticKvLog } from './porcupine/synthetic.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    limit: { type: 'string', default: '600' },
    seed: { type: 'string', default: '1' },
    ops: { type: 'string', default: '100000' },
    keys: { type: 'string', default: '1000' },
  },
});
const positive = (name: string, text: string) => {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`--${name} must be a positive integer, got ${text}`);
  return n;
};
const runs = positive('runs', values.runs);
const limitMs = positive('limit', values.limit) * 1000;
const seed = positive('seed', values.seed);
const totalOps = positive('ops', values.ops);
const keyCount = positive('keys', values.keys);

const here = path.join(import.meta.dirname, 'porcupine');
const fixtures = path.join(import.meta.dirname, '..', 'suites', 'unit', 'ingest', 'fixtures', 'porcupine');
const binary = path.join(here, '.build', 'porcupine-bench');
execFileSync('go', ['build', '-o', binary, '.'], { cwd: here, stdio: 'inherit' });

fs.mkdirSync(path.join(here, '.data'), { recursive: true });
const synthetic = path.join(here, '.data', `kv-synthetic-${totalOps}-${keyCount}-seed${seed}.txt`);
if (!fs.existsSync(synthetic)) fs.writeFileSync(synthetic, syntheticKvLog(totalOps, keyCount, seed));

const etcd = fs
  .readdirSync(path.join(fixtures, 'jepsen'))
  .map((name) => path.join(fixtures, 'jepsen', name))
  .filter((file) => fs.statSync(file).size > 0) // etcd_095.log is empty: no history, no verdict
  .sort();
const workloads = [
  { name: `etcd (${etcd.length} logs, in total)`, porcupine: 'etcd', chaoslua: 'porcupine-etcd', files: etcd },
  { name: 'kv c50-ok', porcupine: 'kv', chaoslua: 'porcupine-kv', files: [path.join(fixtures, 'kv', 'c50-ok.txt')] },
  { name: `kv synthetic (${totalOps} ops, ${keyCount} keys, seed ${seed})`, porcupine: 'kv', chaoslua: 'porcupine-kv', files: [synthetic] },
];

interface Side {
  runsMs: number[];
  verdicts: Record<string, string>;
  finished: boolean;
}

/** Runs a child that prints one JSON line per run, stopping it at the limit. */
function side(command: string, args: string[]): Promise<Side> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const result: Side = { runsMs: [], verdicts: {}, finished: false };
    let buffered = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffered.slice(0, newline)) as { ms: number; verdicts: Record<string, string> };
        buffered = buffered.slice(newline + 1);
        result.runsMs.push(line.ms);
        result.verdicts = line.verdicts;
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      result.finished = code === 0 && result.runsMs.length === runs;
      resolve(result);
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const figure = (s: Side) => (s.finished ? `${median(s.runsMs).toFixed(0)} ms` : `did not finish ${runs} runs in ${limitMs / 1000} s${s.runsMs.length ? ` (${s.runsMs.length} done, median ${median(s.runsMs).toFixed(0)} ms)` : ''}`);

console.log(`bench/porcupine.ts --runs ${runs} --limit ${limitMs / 1000} --seed ${seed} --ops ${totalOps} --keys ${keyCount}`);
console.log(`Porcupine v1.3.1 (go build, ${execFileSync('go', ['version']).toString().trim()}); chaoslua in ${process.version}; median of ${runs} runs each\n`);
const tsx = ['--import', 'tsx', path.join(here, 'chaoslua-side.ts')];
for (const w of workloads) {
  const porcupine = await side(binary, ['-format', w.porcupine, '-runs', String(runs), ...w.files]);
  const decide = await side(process.execPath, [...tsx, '--format', w.chaoslua, '--runs', String(runs), ...w.files]);
  // Minimising only adds work: where deciding did not finish, neither would it.
  const full = decide.finished ? await side(process.execPath, [...tsx, '--format', w.chaoslua, '--runs', String(runs), '--minimise', ...w.files]) : undefined;
  const disagree = w.files.filter((f) => decide.verdicts[f] !== undefined && porcupine.verdicts[f] !== undefined && decide.verdicts[f] !== porcupine.verdicts[f]);
  const ratio = (s: Side) => (s.finished && porcupine.finished ? ` = ${(median(s.runsMs) / median(porcupine.runsMs)).toFixed(2)}x Porcupine` : '');
  console.log(`${w.name}`);
  console.log(`  Porcupine                       ${figure(porcupine)}`);
  console.log(`  chaoslua, deciding only         ${figure(decide)}${ratio(decide)}`);
  console.log(`  chaoslua, as check (minimising) ${full ? `${figure(full)}${ratio(full)}` : 'not run (deciding alone did not finish)'}`);
  const compared = w.files.filter((f) => decide.verdicts[f] !== undefined && porcupine.verdicts[f] !== undefined).length;
  console.log(`  verdicts: ${compared ? `${compared - disagree.length} of ${compared} agree` : 'not compared (a side did not finish)'}${disagree.length ? ` — DISAGREE on ${disagree.map((f) => path.basename(f)).join(', ')}` : ''}\n`);
}
