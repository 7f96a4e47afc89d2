/**
 * What a job says of its corpus: a JUnit case per entry, the summary's lines, and the block of
 * result.json and certificate.json.
 */
import type { JunitCase } from '../report/junit.ts';
import type { CorpusReplay } from './corpus.ts';

/** One JUnit case per entry, so a CI dashboard shows which saved counterexample broke again. */
export function corpusCases(replay: CorpusReplay | undefined): JunitCase[] {
  return (replay?.entries ?? []).map((e) => ({
    name: `corpus ${e.id}`,
    passed: e.status !== 'failing',
    message: e.status === 'failing' ? `a saved counterexample fails again: ${e.detail}` : undefined,
    detail: e.status === 'failing' ? `chaoslua replay ${e.file}` : undefined,
  }));
}

/** The summary's corpus lines. */
export function corpusLines(replay: CorpusReplay | undefined): string[] {
  if (!replay) return [];
  const failing = replay.entries.filter((e) => e.status === 'failing').length;
  const passing = replay.entries.filter((e) => e.status === 'passing').length;
  const foreign = replay.entries.filter((e) => e.status === 'foreign').length;
  const skipped = replay.entries.length - failing - passing - foreign;
  const lines = [
    `  corpus ${replay.dir}: ${replay.entries.length} entr${replay.entries.length === 1 ? 'y' : 'ies'} replayed first — ${failing} still failing, ${passing} now passing${skipped ? `, ${skipped} skipped` : ''}${foreign ? `, ${foreign} from another implementation` : ''} (${(replay.ms / 1000).toFixed(1)} s)${failing ? '; exploration skipped' : ''}`,
  ];
  const mark = { failing: 'FAIL', passing: 'ok  ', skipped: 'skip', foreign: 'othr' } as const;
  for (const e of replay.entries) lines.push(`    ${mark[e.status]} ${e.id}: ${e.detail}`);
  for (const file of replay.saved) lines.push(`  corpus: new entry ${file}`);
  return lines;
}

/** The corpus block of result.json and certificate.json. */
export function corpusJson(replay: CorpusReplay | undefined) {
  if (!replay) return undefined;
  return {
    dir: replay.dir,
    entries: replay.entries.map((e) => ({
      id: e.id,
      file: e.file,
      status: e.status,
      attempts: e.attempts,
      detail: e.detail,
      foundAgainst: e.foundAgainst,
    })),
    saved: replay.saved,
  };
}
