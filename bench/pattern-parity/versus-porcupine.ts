/**
 * Part 3 of bench/pattern-parity.ts: the lock checked by chaoslua (the team-lock fixture compiled,
 * the built-in lock, and team-lock with a plain search beside it) and by Porcupine v1.3.1 (bench/porcupine/lock.go) on the same
 * files of JSON lines, each side in its own process, alternated run by run (order rotated each
 * round), medians. Porcupine's model has no clock, so every lease in these files (60,000 ms) outlasts
 * every key's span (about 1 s): no lease runs out, and chaoslua's expiry search cannot change a
 * verdict. Files: a legal history, and the same with a planted double acquire (illegal).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { median } from '../stats.ts';
import { lockLines, plantViolation, toJsonLines, type LockWorkload } from './lock-histories.ts';
import { pacedSide, type PacedSide } from './paced.ts';

export const LONG_LEASE_MS = 60_000;

export async function versusPorcupine(w: LockWorkload, runs: number, limitMs: number): Promise<void> {
  const porcupineDir = path.join(import.meta.dirname, '..', 'porcupine');
  const binary = path.join(porcupineDir, '.build', 'porcupine-bench');
  execFileSync('go', ['build', '-o', binary, '.'], { cwd: porcupineDir, stdio: 'inherit' });
  const data = path.join(porcupineDir, '.data');
  fs.mkdirSync(data, { recursive: true });
  const lines = lockLines(w);
  const name = `lock-${w.ops}-${w.keys}-c${w.clients}-seed${w.seed}`;
  const files = [path.join(data, `${name}.jsonl`), path.join(data, `${name}-planted.jsonl`)];
  fs.writeFileSync(files[0], toJsonLines(lines));
  fs.writeFileSync(files[1], toJsonLines(plantViolation(lines, LONG_LEASE_MS)));
  const span = new Map<string, [number, number]>();
  for (const l of lines) {
    const [from, to] = span.get(l.key) ?? [Infinity, -Infinity];
    span.set(l.key, [Math.min(from, l.invokedAt), Math.max(to, l.completedAt)]);
  }
  const spanMs = Math.max(...[...span.values()].map(([from, to]) => to - from));
  console.log(`\n## 3. Against Porcupine (${execFileSync('go', ['version']).toString().trim()})`);
  console.log(
    `files: ${w.ops} ops over ${w.keys} keys, ${w.clients} clients a key (at most ${w.clients} in flight), ${(w.indeterminate * 100).toFixed(0)}% indeterminate, 1% refused, ` +
      `leases ${w.leasesMs.join('/')} ms, longest key span ${spanMs.toFixed(0)} ms (no lease runs out), seed ${w.seed}; legal + the same with a planted double acquire`,
  );
  console.log(
    `${runs} runs a side, each side a process of its own, alternated run by run (order rotated each round); a run reads and checks both files; medians\n`,
  );
  const chaoslua = (side: string) => [
    '--import',
    'tsx',
    path.join(import.meta.dirname, 'chaoslua-side.ts'),
    '--side',
    side,
    '--runs',
    String(runs),
    '--paced',
    ...files,
  ];
  const sides: PacedSide[] = [
    pacedSide('Porcupine (lock.go)', binary, ['-format', 'lock', '-runs', String(runs), '-paced', ...files], limitMs),
    pacedSide('chaoslua, team-lock', process.execPath, chaoslua('team-lock'), limitMs),
    pacedSide('chaoslua, built-in lock', process.execPath, chaoslua('built-in lock'), limitMs),
    // team-lock as it was before its holder lookahead was derived: what the lookahead costs where nothing is hard.
    pacedSide('chaoslua, team-lock plain', process.execPath, chaoslua('team-lock, plain search'), limitMs),
  ];
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < sides.length; k++) await sides[(round + k) % sides.length].run();
  }
  for (const s of sides) s.close();
  const [porcupine] = sides;
  const ok = (s: PacedSide) => s.runsMs.length === runs;
  console.log(
    '| side | median, read + check | of which checking | runs (ms) | states | ratio to Porcupine (total / checking) | verdicts (legal, planted) |',
  );
  console.log('| --- | ---: | ---: | --- | ---: | ---: | --- |');
  for (const s of sides) {
    const m = ok(s)
      ? `${median(s.runsMs).toFixed(0)} ms`
      : `stopped after ${s.runsMs.length} runs (limit ${limitMs / 1000} s)`;
    const checking = s.checkMs.length ? `${median(s.checkMs).toFixed(0)} ms` : '-';
    const ratio =
      ok(s) && ok(porcupine)
        ? `${(median(s.runsMs) / median(porcupine.runsMs)).toFixed(2)}x / ${(median(s.checkMs) / median(porcupine.checkMs)).toFixed(2)}x`
        : '-';
    const runsMs = s.runsMs.map((ms) => ms.toFixed(0)).join(', ');
    const verdicts = files.map((f) => s.verdicts[f] ?? '-').join(', ');
    console.log(
      `| ${s.name} | ${m} | ${checking} | ${runsMs} | ${s.states.at(-1)?.toLocaleString('en-US') ?? '-'} | ${ratio} | ${verdicts} |`,
    );
  }
  const agree = files.every((f) => sides.every((s) => s.verdicts[f] === porcupine.verdicts[f]));
  console.log(`\nverdicts ${agree ? 'agree on both files' : 'DISAGREE'} (expected: ok, illegal)`);
}
