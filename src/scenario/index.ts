/** Scenarios: the patterns' known failures reproduced on a real cluster, broken variant against remediation. */
export type {
  AnyScenario,
  Judgement,
  Scenario,
  ScenarioResult,
  Slot,
  SlotResult,
  StepContext,
  Variant,
} from './types.ts';
export { runScenario, runScenarios, withoutRemediation } from './run.ts';
export type { RunScenarioOptions } from './run.ts';
export { ClusterPool } from './pool.ts';
export { OpLog, summariseCheck, checkLine } from './oplog.ts';
export type { CheckSummary } from './oplog.ts';
export {
  histogramBucketQuantile,
  openStore,
  openStoreWith,
  withConnection,
  metricSum,
  SCENARIO_REDIS_OPTIONS,
} from './stores.ts';
export type { RunnerFactory, ScriptOverrides, StoreSource } from './stores.ts';
export { shardOf, shardOfSlot, keysOn, masterIndexes, nodeInfo, sleep } from './topology.ts';
