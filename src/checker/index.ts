export { check, overallVerdict } from './check.ts';
export { describeOp, describeViolation } from './describe.ts';
export { operationKind } from './duplicates.ts';
export { LOST_ACKNOWLEDGED_WRITE } from './lost-acknowledged.ts';
export type { Classification, Classifier, StuckContext } from './invariants/index.ts';
export { specOf } from './spec.ts';
export type { Checkable, CheckSpec } from './spec.ts';
export { MODEL_PRUNING } from './search.ts';
export { DROP, KEEP } from './search/pruning.ts';
export type { Pruner, PrunerFactory } from './search/pruning.ts';
export { isPlaced } from './search/configuration.ts';
export type { Configuration } from './search/configuration.ts';
export { defaultCheckOptions, resolveCheckOptions } from './options.ts';
export { linearHistory } from './synthetic.ts';
export type { PlannedOp, PlannedOutcome } from './synthetic.ts';
export type {
  CheckOptions,
  CheckResult,
  CheckStats,
  DuplicateEffects,
  KeyVerdict,
  ReplicationLoss,
  ResolvedCheckOptions,
  Verdict,
  Violation,
} from './types.ts';
