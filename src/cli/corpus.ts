import fs from 'node:fs';
import path from 'node:path';
import { CorpusError, defaultCorpusDir, readCorpus, type StoredEntry } from '../corpus/store.ts';
import { DEFAULT_PATTERN, isPatternName, PATTERN_NAMES } from '../patterns/index.ts';
import { countOps } from '../plan/schedule.ts';
import { parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { processIo, type Io } from './io.ts';

export const summary = 'list or prune the regression corpus (counterexamples replayed before every certify and run)';

// The patterns come from the registry: a pattern added there has a corpus here too.
export const HELP = `usage: chaoslua corpus list|prune [DIR] [options]

The regression corpus keeps every counterexample certify and run find; each later certify or run
replays it before exploring. DIR defaults to the corpus of --impl (.chaoslua/corpus/<pattern>/
beside it), else of the reference implementation of --pattern.

  list               each entry: id, what it broke, its operations, the implementation it was found
                     against (sha256), when, and its latest replay
  prune              remove the entries whose latest replay passed (the fix is in); --dry-run says
                     which without removing

options:
  --impl SPEC        lua:DIR, module:PATH or cmd:COMMAND: its corpus (default: the reference
                     implementation of --pattern, lua/<pattern>)
  --pattern P        ${PATTERN_NAMES.join(' | ')} (default ${DEFAULT_PATTERN}),
                     or your own pattern's file: ./pattern.mjs (docs/patterns.md)
  --dry-run          prune: list what would be removed (default: off)
  --json             print the entries as JSON (default: off)
  -h, --help         this text
${helpFooter('corpus')}`;

export const FLAGS = {
  impl: { type: 'string' },
  pattern: { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const { values, positionals } = parse('corpus', argv, FLAGS, true);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  const [action, dirArg, ...extra] = positionals;
  if (action !== 'list' && action !== 'prune')
    throw new UsageError(`corpus: expected list or prune, got ${action === undefined ? 'nothing' : `'${action}'`}`);
  if (extra.length) throw new UsageError(`corpus: unexpected argument '${extra[0]}'`);
  if (values.pattern !== undefined && !isPatternName(values.pattern))
    throw new UsageError(`corpus: --pattern must be ${PATTERN_NAMES.join(', ')}, got '${values.pattern}'`);
  const pattern = values.pattern ?? DEFAULT_PATTERN;
  const dir =
    dirArg !== undefined
      ? path.resolve(dirArg)
      : defaultCorpusDir(values.impl ?? `lua:${path.resolve('lua', pattern)}`, pattern);
  if (dirArg !== undefined && !fs.existsSync(dir)) throw new UsageError(`corpus: no such directory: ${dirArg}`);
  let entries: StoredEntry[];
  try {
    // A DIR given is read whatever pattern it holds; one derived from --pattern must hold only that.
    entries = readCorpus(dir, dirArg === undefined ? pattern : undefined);
  } catch (error) {
    if (error instanceof CorpusError) throw new UsageError(`corpus: ${error.message}`);
    throw error;
  }
  if (action === 'list') return list(dir, entries, values.json ?? false, io);
  return prune(dir, entries, values['dry-run'] ?? false, values.json ?? false, io);
}

function describe(e: StoredEntry): string {
  const broke = [...new Set(e.entry.result.violations.map((v) => v.invariant))].join(', ') || e.entry.result.verdict;
  const last = e.entry.corpus.lastReplay;
  const replay = last
    ? `last replay ${last.status} (${last.at}, sha256 ${last.sha256.slice(0, 12)})`
    : 'never replayed';
  const by = e.entry.corpus.impl === undefined ? '' : ` (${e.entry.corpus.impl})`;
  return `${e.id}  ${e.entry.pattern}  ${broke}  ${countOps(e.entry.schedule)} ops  found against sha256 ${e.entry.corpus.sha256.slice(0, 12)}${by} on ${e.entry.corpus.savedAt}  ${replay}`;
}

const entryJson = (e: StoredEntry) => ({
  id: e.id,
  file: e.file,
  pattern: e.entry.pattern,
  invariants: [...new Set(e.entry.result.violations.map((v) => v.invariant))],
  operations: countOps(e.entry.schedule),
  ...e.entry.corpus,
});

function list(dir: string, entries: StoredEntry[], json: boolean, io: Io): number {
  if (json) io.stdout.write(JSON.stringify({ dir, entries: entries.map(entryJson) }, null, 2) + '\n');
  else
    io.stdout.write(
      [
        `corpus ${dir}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`,
        ...entries.map((e) => `  ${describe(e)}`),
      ].join('\n') + '\n',
    );
  return EXIT.ok;
}

function prune(dir: string, entries: StoredEntry[], dryRun: boolean, json: boolean, io: Io): number {
  const fixed = entries.filter((e) => e.entry.corpus.lastReplay?.status === 'passing');
  if (!dryRun) for (const e of fixed) fs.rmSync(e.file);
  if (json)
    io.stdout.write(
      JSON.stringify(
        {
          dir,
          removed: dryRun ? [] : fixed.map(entryJson),
          wouldRemove: dryRun ? fixed.map(entryJson) : [],
          kept: entries.length - fixed.length,
        },
        null,
        2,
      ) + '\n',
    );
  else {
    const verb = dryRun ? 'would remove' : 'removed';
    io.stdout.write(
      [
        `corpus ${dir}: ${verb} ${fixed.length} entr${fixed.length === 1 ? 'y' : 'ies'} whose last replay passed, kept ${entries.length - fixed.length}`,
        ...fixed.map((e) => `  ${verb} ${describe(e)}`),
      ].join('\n') + '\n',
    );
  }
  return EXIT.ok;
}
