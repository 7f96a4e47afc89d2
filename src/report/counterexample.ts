import { InputLimitError, readBoundedText } from '../files/bounded-read.ts';
import type { CheckResult } from '../checker/types.ts';
import type { Schedule } from '../plan/schedule.ts';
import type { History } from '../history/types.ts';
import { SchemaError, validateCounterexample } from './counterexample-schema.ts';

export const COUNTEREXAMPLE_VERSION = 1;

/** Everything needed to see, re-check and re-run a failure. */
export interface Counterexample {
  readonly version: typeof COUNTEREXAMPLE_VERSION;
  readonly pattern: Schedule['pattern'];
  /** What was tested: the --impl spec, or the reference implementation. */
  readonly impl: string;
  /** The --impl spec that re-opens it (lua:DIR, module:PATH, cmd:...). */
  readonly implSpec?: string;
  /** The file a pattern a team declared was loaded from (absolute): `replay` loads it again. */
  readonly patternFile?: string;
  readonly seed: number;
  /** fast-check path of the shrunk schedule: `--seed S --path P` regenerates it. */
  readonly path?: string;
  readonly options: Record<string, unknown>;
  readonly schedule: Schedule;
  /** The schedule as a person reads it. */
  readonly scheduleText: string;
  readonly history: History;
  readonly result: CheckResult;
}

export function readCounterexample(
  file: string,
  kind: 'counterexample' | 'corpus entry' = 'counterexample',
): Counterexample {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readBoundedText(file, kind));
  } catch (error) {
    if (error instanceof InputLimitError) throw new Error(error.message);
    throw new Error(`${file}: not a readable JSON file (${(error as Error).message.split('\n')[0]})`);
  }
  try {
    validateCounterexample(parsed, COUNTEREXAMPLE_VERSION);
  } catch (error) {
    if (!(error instanceof SchemaError)) throw error;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error(
        `${file}: not a chaoslua counterexample (it holds ${parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`}, not an object)`,
      );
    }
    const version = (parsed as { version?: unknown }).version;
    if (version !== COUNTEREXAMPLE_VERSION)
      throw new Error(
        `${file}: not a chaoslua counterexample (version ${JSON.stringify(version)}, expected ${COUNTEREXAMPLE_VERSION})`,
      );
    throw new Error(`${file}: not a valid counterexample: ${error.message}`);
  }
  return parsed as Counterexample;
}
