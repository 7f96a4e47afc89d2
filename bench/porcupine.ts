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
 * of reading and checking every file of the workload, per run; medians of --runs runs, the sides
 * alternated run by run (so the first, cold runs of each process fall in the same stretch). chaoslua is
 * timed twice: deciding only (minimise off, which is all Porcupine does) and as `chaoslua check`
 * runs (each illegal key also delta-debugged to a minimal sub-history). A side that has not
 * finished its runs within --limit seconds (of its own run time) is stopped and reported as such. Verdicts of the two
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
  {
    name: `kv synthetic (${totalOps} ops, ${keyCount} keys, seed ${seed})`,
    porcupine: 'kv',
    chaoslua: 'porcupine-kv',
    files: [synthetic],
  },
];

interface Side {
  readonly name: string;
  readonly runsMs: number[];
  verdicts: Record<string, string>;
  /** Wall time this side spent on its runs so far: the --limit applies to it. */
  spentMs: number;
  finished: boolean;
  stopped: boolean;
  run(): Promise<void>;
  close(): void;
}

/**
 * A child that runs the workload once per line it reads on stdin (-paced / --paced) and prints one
 * JSON line per run, so the bench can alternate the sides run by run: a change in the box's load
 * then falls on every side alike, not on whichever ran its five runs during it.
 */
function pacedSide(name: string, command: string, args: string[]): Side {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      lines.push(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
    }
    wake?.();
  });
  child.on('close', () => {
    closed = true;
    wake?.();
  });
  child.stdin.on('error', () => {}); // a child that died is seen through 'close'
  const side: Side = {
    name,
    runsMs: [],
    verdicts: {},
    spentMs: 0,
    finished: false,
    stopped: false,
    async run() {
      if (side.stopped) return;
      const started = performance.now();
      child.stdin.write('\n');
      const timer = setTimeout(() => child.kill('SIGKILL'), Math.max(0, limitMs - side.spentMs));
      while (lines.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
      clearTimeout(timer);
      side.spentMs += performance.now() - started;
      const line = lines.shift();
      if (line === undefined) {
        side.stopped = true;
        return;
      }
      const parsed = JSON.parse(line) as { ms: number; verdicts: Record<string, string> };
      side.runsMs.push(parsed.ms);
      side.verdicts = parsed.verdicts;
      side.finished = side.runsMs.length === runs;
    },
    close() {
      child.stdin.end();
      if (!side.finished) child.kill('SIGKILL');
    },
  };
  return side;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const figure = (s: Side) =>
  s.finished
    ? `${median(s.runsMs).toFixed(0)} ms`
    : `did not finish ${runs} runs in ${limitMs / 1000} s${s.runsMs.length ? ` (${s.runsMs.length} done, median ${median(s.runsMs).toFixed(0)} ms)` : ''}`;

console.log(
  `npx tsx bench/porcupine.ts --runs ${runs} --limit ${limitMs / 1000} --seed ${seed} --ops ${totalOps} --keys ${keyCount}`,
);
console.log(
  `Porcupine v1.3.1 (go build, ${execFileSync('go', ['version']).toString().trim()}); chaoslua in ${process.version}`,
);
console.log(
  `${runs} runs a side, the sides alternated run by run (order rotated each round), each side in its own process; medians\n`,
);
const tsx = ['--import', 'tsx', path.join(here, 'chaoslua-side.ts')];
for (const w of workloads) {
  const chaoslua = (minimise: boolean) => [
    ...tsx,
    '--format',
    w.chaoslua,
    '--runs',
    String(runs),
    '--paced',
    ...(minimise ? ['--minimise'] : []),
    ...w.files,
  ];
  const porcupine = pacedSide('Porcupine', binary, [
    '-format',
    w.porcupine,
    '-runs',
    String(runs),
    '-paced',
    ...w.files,
  ]);
  const decide = pacedSide('decide', process.execPath, chaoslua(false));
  const full = pacedSide('check', process.execPath, chaoslua(true));
  const sides = [porcupine, decide, full];
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < sides.length; k++) await sides[(round + k) % sides.length].run();
  }
  for (const s of sides) s.close();
  const disagree = w.files.filter(
    (f) =>
      decide.verdicts[f] !== undefined &&
      porcupine.verdicts[f] !== undefined &&
      decide.verdicts[f] !== porcupine.verdicts[f],
  );
  const ratio = (s: Side) =>
    s.finished && porcupine.finished ? ` = ${(median(s.runsMs) / median(porcupine.runsMs)).toFixed(2)}x Porcupine` : '';
  const spread = (s: Side) => (s.runsMs.length ? ` (runs ${s.runsMs.map((ms) => ms.toFixed(0)).join(', ')})` : '');
  console.log(`${w.name}`);
  console.log(`  Porcupine                       ${figure(porcupine)}${spread(porcupine)}`);
  console.log(`  chaoslua, deciding only         ${figure(decide)}${ratio(decide)}${spread(decide)}`);
  console.log(`  chaoslua, as check (minimising) ${figure(full)}${ratio(full)}${spread(full)}`);
  const compared = w.files.filter(
    (f) => decide.verdicts[f] !== undefined && porcupine.verdicts[f] !== undefined,
  ).length;
  console.log(
    `  verdicts: ${compared ? `${compared - disagree.length} of ${compared} agree` : 'not compared (a side did not finish)'}${disagree.length ? ` — DISAGREE on ${disagree.map((f) => path.basename(f)).join(', ')}` : ''}\n`,
  );
}
