/**
 * chaoslua's side of bench/porcupine.ts, in a child process so the bench can stop it at a time
 * limit: reads and checks every file as `chaoslua check` does (src/ingest, then the checker), once
 * per run, and prints one JSON line per run as it finishes.
 *   npx tsx bench/porcupine/chaoslua-side.ts --format F --runs N [--minimise] [--paced] FILE...
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { check } from '../../src/checker/index.ts';
import { isHistoryFormat, readHistory } from '../../src/ingest/index.ts';
import { checkableSpec } from '../../src/patterns/checkable.ts';

const { values, positionals } = parseArgs({
  options: {
    format: { type: 'string' },
    runs: { type: 'string', default: '5' },
    minimise: { type: 'boolean', default: false },
    // Wait for a line on stdin before each run: the bench alternates the sides run by run.
    paced: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const format = values.format ?? '';
if (!isHistoryFormat(format)) throw new Error(`--format must name a history format, got ${format}`);
const runs = Number(values.runs);

const lines = values.paced ? readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]() : undefined;
for (let run = 0; run < runs; run++) {
  if (lines !== undefined && (await lines.next()).done) break;
  const started = performance.now();
  const verdicts: Record<string, string> = {};
  let states = 0;
  for (const file of positionals) {
    const { history, model } = readHistory(file, fs.readFileSync(file, 'utf8'), format);
    const result = check(history, checkableSpec(model), { minimise: values.minimise });
    verdicts[file] = result.verdict;
    states += result.stats.statesExplored;
  }
  process.stdout.write(JSON.stringify({ ms: performance.now() - started, verdicts, states }) + '\n');
}
process.exit(0); // stdin may still be open
