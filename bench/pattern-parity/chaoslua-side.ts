/**
 * chaoslua's side of bench/pattern-parity.ts's comparison with Porcupine, in a child process as
 * bench/porcupine/chaoslua-side.ts is: reads and checks every file (lock-histories.ts's JSON lines)
 * with one of sides.ts's checkers, deciding only (minimise off, which is all Porcupine does), once
 * per run, and prints one JSON line per run as it finishes (its wall time, and the part spent checking).
 *   npx tsx bench/pattern-parity/chaoslua-side.ts --side NAME --runs N [--paced] FILE...
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { check } from '../../src/checker/index.ts';
import { readLockLines } from './lock-histories.ts';
import { SIDE_NAMES, SIDES, type SideName } from './sides.ts';

const { values, positionals } = parseArgs({
  options: {
    side: { type: 'string', default: 'team-lock' },
    runs: { type: 'string', default: '5' },
    // Wait for a line on stdin before each run: the bench alternates the sides run by run.
    paced: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
if (!SIDE_NAMES.includes(values.side as SideName))
  throw new Error(`--side must be one of ${SIDE_NAMES.join(', ')}, got ${values.side}`);
const checkable = SIDES[values.side as SideName];
const runs = Number(values.runs);

const lines = values.paced ? readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]() : undefined;
for (let run = 0; run < runs; run++) {
  if (lines !== undefined && (await lines.next()).done) break;
  const started = performance.now();
  const verdicts: Record<string, string> = {};
  let states = 0;
  let checkMs = 0;
  for (const file of positionals) {
    const history = readLockLines(fs.readFileSync(file, 'utf8'));
    const checkStarted = performance.now();
    const result = check(history, checkable, { minimise: false });
    checkMs += performance.now() - checkStarted;
    verdicts[file] = result.verdict;
    states += result.stats.statesExplored;
  }
  process.stdout.write(JSON.stringify({ ms: performance.now() - started, checkMs, verdicts, states }) + '\n');
}
process.exit(0); // stdin may still be open
