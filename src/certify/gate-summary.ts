import { corpusLines } from './corpus-report.ts';
import { describeShard } from '../runner/shard.ts';
import type { JobOptions, JobResult } from './types.ts';

/** The summary's lines about the CI gate: which shard this was, and what the corpus replay showed. */
export function gateLines(options: JobOptions, r: JobResult): string[] {
  const shard = options.shard
    ? [
        `  shard ${describeShard(options.shard)} of seed ${options.seed}: evidence is judged when the shards are merged (chaoslua merge)`,
      ]
    : [];
  return [...shard, ...corpusLines(r.corpus)];
}
