/**
 * The regression corpus: every counterexample a job finds, kept in a folder and replayed before any
 * later job of the same pattern explores (as Hypothesis keeps its example database), so a failure
 * once found is checked first forever, whatever the seed.
 *
 * An entry is a counterexample.json (the same file `replay` reads: schedule, seed, path, history,
 * verdict) with a `corpus` block: the sha256 of the implementation that failed it, when it was saved
 * and from which run, and what its last replay showed. Named by a hash of its schedule, so the same
 * failure found twice is kept once.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readCounterexample, type Counterexample } from '../report/counterexample.ts';

export interface CorpusMeta {
  /** sha256 of the implementation the counterexample was found against (certificate.json's). */
  readonly sha256: string;
  /**
   * Which implementation found it, across its versions (implIdentity): entries are replayed only
   * against it. Absent in entries saved before it existed, which are replayed against any.
   */
  readonly impl?: string;
  readonly savedAt: string;
  /** The run folder that found it. */
  readonly from: string;
  /** What the latest replay showed, and against which implementation. */
  readonly lastReplay?: { readonly at: string; readonly status: ReplayStatus; readonly sha256: string };
}

/** `foreign`: found by another implementation that shares the folder; not replayed, only reported. */
export type ReplayStatus = 'failing' | 'passing' | 'skipped' | 'foreign';

export type CorpusEntry = Counterexample & { readonly corpus: CorpusMeta };

export interface StoredEntry {
  readonly id: string;
  readonly file: string;
  readonly entry: CorpusEntry;
}

/** Bad corpus input (not a folder, an unreadable or foreign entry): the CLI prints it on one line, exit 2. */
export class CorpusError extends Error {
  override readonly name = 'CorpusError';
}

/**
 * Where a job keeps its corpus when --corpus is not given: `.chaoslua/corpus/<pattern>/` beside the
 * implementation (next to a lua: folder or a module: file; the working directory for cmd:), so it
 * travels with the code it guards and can be committed with it.
 */
export function defaultCorpusDir(implSpec: string, pattern: string): string {
  const colon = implSpec.indexOf(':');
  const kind = implSpec.slice(0, colon);
  const target = implSpec.slice(colon + 1);
  const beside = kind === 'lua' || kind === 'module' ? path.dirname(path.resolve(target)) : process.cwd();
  return path.join(beside, '.chaoslua', 'corpus', pattern);
}

/**
 * The name of an implementation that stays the same across its versions (its digest does not): a
 * lua: folder or module: file by its path relative to the corpus folder (so a committed corpus moves
 * with the code), a cmd: program by its command line. Two implementations run from one folder (cmd:
 * programs share the working directory's corpus) therefore keep apart.
 */
export function implIdentity(implSpec: string, corpusDir: string): string {
  const colon = implSpec.indexOf(':');
  const kind = implSpec.slice(0, colon);
  if (kind !== 'lua' && kind !== 'module') return implSpec;
  const relative = path
    .relative(corpusDir, path.resolve(implSpec.slice(colon + 1)))
    .split(path.sep)
    .join('/');
  return `${kind}:${relative}`;
}

/** The entry's name: a hash of its schedule, so one failing schedule is one entry. */
export const entryId = (schedule: Counterexample['schedule']) =>
  createHash('sha256').update(JSON.stringify(schedule)).digest('hex').slice(0, 16);

/**
 * Every entry of the corpus folder, oldest first; a folder not yet made is an empty corpus. Throws a
 * CorpusError naming the file for anything else (a file where the folder should be, an entry that is
 * not a counterexample, one of another pattern), before any cluster starts.
 */
export function readCorpus(dir: string, pattern?: string): StoredEntry[] {
  if (!fs.existsSync(dir)) return [];
  let names: string[];
  try {
    if (!fs.statSync(dir).isDirectory()) throw new CorpusError(`corpus ${dir}: not a directory`);
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch (error) {
    if (error instanceof CorpusError) throw error;
    throw new CorpusError(`corpus ${dir}: cannot be read (${(error as Error).message.split('\n')[0]})`);
  }
  const entries = names.map((name) => readEntry(path.join(dir, name)));
  for (const e of entries) {
    if (pattern && e.entry.pattern !== pattern)
      throw new CorpusError(`corpus entry ${e.file}: a ${e.entry.pattern} counterexample in a ${pattern} corpus`);
  }
  return entries.sort(
    (a, b) => a.entry.corpus.savedAt.localeCompare(b.entry.corpus.savedAt) || a.id.localeCompare(b.id),
  );
}

function readEntry(file: string): StoredEntry {
  let ce: Counterexample;
  try {
    ce = readCounterexample(file, 'corpus entry');
  } catch (error) {
    throw new CorpusError(`corpus entry ${(error as Error).message.split('\n')[0]}`);
  }
  const meta = (ce as Partial<CorpusEntry>).corpus;
  if (
    typeof meta !== 'object' ||
    meta === null ||
    Array.isArray(meta) ||
    (meta.sha256 === undefined && meta.savedAt === undefined)
  ) {
    throw new CorpusError(`corpus entry ${file}: no corpus block (sha256, savedAt): not saved by a chaoslua job`);
  }
  // Every field by its type, as lastReplay's below: a wrong one is named with what it holds.
  const required = (f: keyof CorpusMeta) => f === 'sha256' || f === 'savedAt';
  const fieldProblem = (['sha256', 'savedAt', 'from', 'impl'] as const)
    .map((f) =>
      typeof meta[f] === 'string' || (meta[f] === undefined && !required(f))
        ? undefined
        : `corpus.${f}: expected a string, got ${shownJson(meta[f])}`,
    )
    .find(Boolean);
  if (fieldProblem) throw new CorpusError(`corpus entry ${file}: ${fieldProblem}`);
  const replayProblem = lastReplayProblem(meta.lastReplay);
  if (replayProblem) throw new CorpusError(`corpus entry ${file}: corpus.lastReplay${replayProblem}`);
  return { id: path.basename(file, '.json'), file, entry: ce as CorpusEntry };
}

/** A value as JSON, cut to 60 characters with its length when longer. */
function shownJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}... (${text.length} characters)` : text;
}

const STATUSES: readonly ReplayStatus[] = ['failing', 'passing', 'skipped'];

/** What is wrong with a stored lastReplay (absent: never replayed), as `.field: expected ..., got ...`. */
function lastReplayProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const got = (v: unknown) => `got ${shownJson(v)}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `: expected an object {at, status, sha256}, ${got(value)}`;
  const r = value as Record<string, unknown>;
  if (typeof r.at !== 'string') return `.at: expected a date string, ${got(r.at)}`;
  if (!STATUSES.includes(r.status as ReplayStatus))
    return `.status: expected one of ${STATUSES.join(', ')}, ${got(r.status)}`;
  if (typeof r.sha256 !== 'string') return `.sha256: expected a string, ${got(r.sha256)}`;
  return undefined;
}

/** Saves a counterexample as an entry; an entry with the same schedule is kept as it is. */
export function saveEntry(
  dir: string,
  ce: Counterexample,
  sha256: string,
  from: string,
  impl?: string,
): { file: string; added: boolean } {
  const file = path.join(dir, `${entryId(ce.schedule)}.json`);
  if (fs.existsSync(file)) return { file, added: false };
  fs.mkdirSync(dir, { recursive: true });
  const entry: CorpusEntry = {
    ...ce,
    corpus: { sha256, ...(impl === undefined ? {} : { impl }), savedAt: new Date().toISOString(), from },
  };
  writeAtomically(file, entry);
  return { file, added: true };
}

/** Records the latest replay's outcome in the entry, for `corpus list` and `corpus prune`. */
export function recordReplay(stored: StoredEntry, status: ReplayStatus, sha256: string): void {
  const entry: CorpusEntry = {
    ...stored.entry,
    corpus: { ...stored.entry.corpus, lastReplay: { at: new Date().toISOString(), status, sha256 } },
  };
  writeAtomically(stored.file, entry);
}

/** Write then rename: two jobs sharing a corpus never read half an entry. */
function writeAtomically(file: string, value: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
  fs.renameSync(tmp, file);
}
