/**
 * `definePattern`: what a team's pattern file exports (as its default export, or as `pattern`).
 * It checks the spec at once, so a mistake shows where the file is written (the harness checks it
 * again when it loads the file, whichever chaoslua the file imported this from).
 */
import { PATTERN_API_VERSION, type PatternSpec } from './spec.ts';
import { validatePatternSpec } from './validate.ts';

export function definePattern<S, I extends { readonly op: string }, O>(
  spec: Omit<PatternSpec<S, I, O>, 'apiVersion'>,
): PatternSpec<S, I, O> {
  return validatePatternSpec({ ...spec, apiVersion: PATTERN_API_VERSION }) as PatternSpec<S, I, O>;
}

export { arg } from './args.ts';
export { PatternError } from './validate.ts';
export { PATTERN_API_VERSION } from './spec.ts';
export type {
  ArgSpec,
  DrawContext,
  InvariantSpec,
  LeaseRule,
  ModelSpec,
  OperationSpec,
  PatternSpec,
  StepResult,
  Stuck,
} from './spec.ts';
export type { CoverageGroup, OptInGroups, SearchHints, SessionDraw } from './groups.ts';
