/**
 * The flags that make a job a CI gate: the regression corpus (certify and run), shards and a
 * baseline (certify). Each is checked here, before any cluster starts.
 */
import type { CorpusOptions } from '../certify/corpus.ts';
import { CorpusError, defaultCorpusDir, implIdentity, readCorpus } from '../corpus/store.ts';
import { parseShard, ShardError, type Shard } from '../runner/shard.ts';
import { UsageError } from './exit-codes.ts';
import { probeOutput } from './out-file.ts';
import { InputLimitError, readBoundedText } from '../files/bounded-read.ts';

export const CORPUS_FLAGS = {
  corpus: { type: 'string' },
  'no-corpus': { type: 'boolean' },
} as const;

export const SHARD_FLAGS = {
  shard: { type: 'string' },
  baseline: { type: 'string' },
} as const;

export const CORPUS_FLAGS_HELP = `  --corpus DIR       the regression corpus: its saved counterexamples are replayed before exploring
                     (each reported still failing or now passing; one still failing ends the job,
                     not certified; only the entries this implementation found, in any version,
                     are replayed), and every new counterexample is saved there
                     (default .chaoslua/corpus/<pattern>/ beside the implementation)
  --no-corpus        neither replay nor save (default: off)`;

export const SHARD_FLAGS_HELP = `  --shard k/n        run shard k (0-based) of n: the draws of --seed (required) whose index is k
                     modulo n, so n shards of --runs R cover what one job of n*R runs would; evidence
                     is judged when the shards' certificates are merged (chaoslua merge; default: none,
                     the whole job)
  --baseline FILE    a certificate.json of an earlier certify: fail (exit 1) only when an invariant
                     that passed there fails now, or it was certified and this is not; says what
                     changed (invariants, findings, replication losses; default: none)`;

/** The corpus a job uses, or undefined with --no-corpus; its entries are read once here to fail early. */
export function corpusOption(
  command: string,
  values: { corpus?: string; 'no-corpus'?: boolean },
  implSpec: string,
  pattern: string,
  sha256: string,
): CorpusOptions | undefined {
  if (values['no-corpus']) {
    if (values.corpus !== undefined) throw new UsageError(`${command}: --corpus and --no-corpus together`);
    return undefined;
  }
  // Counterexamples are saved there after the runs: a folder that cannot take them is refused now.
  const dir =
    values.corpus === undefined
      ? defaultCorpusDir(implSpec, pattern)
      : probeOutput(command, 'corpus', values.corpus, 'directory');
  try {
    readCorpus(dir, pattern);
  } catch (error) {
    if (error instanceof CorpusError) throw new UsageError(`${command}: --corpus: ${error.message}`);
    throw error;
  }
  return { dir, sha256, impl: implIdentity(implSpec, dir) };
}

/** --shard k/n, which needs the --seed every shard shares and cannot re-run one --path. */
export function shardOption(
  command: string,
  values: { shard?: string; seed?: string; path?: string },
): Shard | undefined {
  if (values.shard === undefined) return undefined;
  let shard: Shard;
  try {
    shard = parseShard(values.shard);
  } catch (error) {
    if (error instanceof ShardError) throw new UsageError(`${command}: ${error.message}`);
    throw error;
  }
  if (values.seed === undefined)
    throw new UsageError(`${command}: --shard needs --seed: every shard must draw from the same seed`);
  if (values.path !== undefined)
    throw new UsageError(
      `${command}: --shard and --path together (a path re-runs one schedule: replay it without --shard)`,
    );
  return shard;
}

/** The file --baseline names, read as JSON; its fields are checked by the comparison. */
export function readJsonFile(command: string, flag: string, file: string): unknown {
  try {
    return JSON.parse(readBoundedText(file, 'certificate'));
  } catch (error) {
    if (error instanceof InputLimitError) throw new UsageError(`${command}: --${flag} ${error.message}`);
    throw new UsageError(
      `${command}: --${flag} ${file}: not a readable JSON file (${(error as Error).message.split('\n')[0]})`,
    );
  }
}
