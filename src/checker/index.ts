export { check, overallVerdict } from './check.ts';
export { describeOp, describeViolation } from './describe.ts';
export { operationKind } from './duplicates.ts';
export { LOST_ACKNOWLEDGED_WRITE } from './lost-acknowledged.ts';
export { invariantTable } from './invariants/index.ts';
export type { Classification, Classifier, InvariantTable, StuckContext } from './invariants/index.ts';
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
