#!/usr/bin/env node
// Cold start of `chaoslua check`, before and after the package ran compiled JavaScript (issue 30):
// each side in a new node process, alternated round by round, medians of the wall time.
//
//   node bench/results/cold-start.mjs ROUNDS HISTORY NAME=ENTRY [NAME=ENTRY...]
//
// ENTRY is a bin/chaoslua.mjs. A name ending in `:no-cache` runs with an empty TMPDIR of its own
// each time, so tsx (which caches what it compiles under the temporary folder) starts with nothing
// compiled: what a first run after an install costs. Plain JavaScript: it measures, it needs no loader.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [roundsText, history, ...sides] = process.argv.slice(2);
const rounds = Number(roundsText);
if (!Number.isInteger(rounds) || rounds < 1 || !history || sides.length === 0) {
  process.stderr.write('usage: node bench/results/cold-start.mjs ROUNDS HISTORY NAME=ENTRY [NAME=ENTRY...]\n');
  process.exit(2);
}
const entries = sides.map((s) => {
  const at = s.indexOf('=');
  return { name: s.slice(0, at), bin: s.slice(at + 1), ms: [] };
});
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
for (let round = 0; round < rounds; round++) {
  // Rotate the order each round, so neither side always runs first after the other.
  for (let i = 0; i < entries.length; i++) {
    const e = entries[(i + round) % entries.length];
    const tmp = e.name.endsWith(':no-cache') ? fs.mkdtempSync(path.join(os.tmpdir(), 'cold-start-')) : undefined;
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [e.bin, 'check', history, '--no-report'], { encoding: 'utf8', env: tmp ? { ...process.env, TMPDIR: tmp } : process.env });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    if (r.status !== 0) throw new Error(`${e.name}: exit ${r.status}: ${r.stderr}`);
    e.ms.push(ms);
  }
}
process.stdout.write(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${rounds} rounds, alternated\n`);
for (const e of entries) {
  process.stdout.write(`${e.name.padEnd(24)} median ${median(e.ms).toFixed(0)} ms  (min ${Math.min(...e.ms).toFixed(0)}, max ${Math.max(...e.ms).toFixed(0)})\n`);
}
