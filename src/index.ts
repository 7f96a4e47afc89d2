/**
 * chaoslua's public API, written by hand: what a team needs to certify an implementation from code
 * rather than from the CLI. Everything else is internal and may change.
 */

// Clusters: the embedded default, Docker compose, and existing clusters.
export { LocalCluster } from './cluster/local.ts';
export type { LocalClusterConstraints } from './cluster/options.ts';
export { ComposeCluster } from './cluster/compose.ts';
export { ExternalCluster } from './cluster/external.ts';
export { startCluster, parseClusterSpec } from './cluster/select.ts';
export type { Cluster, FailoverMode, Link, NodeRef, NodeState, Topology, ToxicSpec } from './cluster/types.ts';
export { EnvironmentError, ClusterUsageError } from './cluster/errors.ts';

// The four roles and the record that joins them.
export type {
  History,
  OpRecord,
  FaultRecord,
  TopologyRecord,
  ProbeRecord,
  Outcome,
  FaultKind,
} from './history/types.ts';
export { scheduleArbitrary, describeSchedule, describeFault, FAULT_NAMES, parseFaultList } from './generator/index.ts';
export type { Schedule, ClientStep, FaultStep, ScheduleConstraints, FaultName } from './generator/index.ts';
export { PATTERNS, PATTERN_NAMES } from './patterns/index.ts';
export type { DuplicateDeclaration, Pattern, PatternName } from './patterns/index.ts';
export { runSchedule } from './runner/run.ts';
export type { RunContext, RunResult } from './runner/run.ts';
export { chaos } from './certify/chaos.ts';
export type { ChaosOptions, ChaosOutcome, ChaosContext, RunTally } from './certify/chaos.ts';
export { check, describeViolation } from './checker/index.ts';
export type { CheckOptions, CheckResult, DuplicateEffects, Violation, KeyVerdict, Verdict } from './checker/types.ts';

// The specification and the reference implementation.
export { models } from './patterns/index.ts';
export type { Model, Step } from './model/types.ts';
export type { Subject } from './subject/types.ts';
export { IdempotencyStore } from './patterns/idempotency/client.ts';
export { LockClient } from './patterns/lock/client.ts';
export { LimiterClient } from './patterns/ratelimit/client.ts';
export { createReferenceSubject } from './impl/reference.ts';
export { scopedKey } from './patterns/idempotency/keys.ts';

// Certification from code, as the CLI does it.
export { runJob } from './certify/job.ts';
export type { JobOptions, JobResult, ImplOpener, OpenedImpl } from './certify/types.ts';
export { jobOptions } from './cli/chaos-flags.ts';
export { jobOptionsFrom, JobOptionError, JOB_DEFAULTS, JOB_INTEGERS } from './certify/options.ts';
export type { JobConstraints } from './certify/options.ts';
export { luaDirOpener } from './certify/openers/lua-dir.ts';
export { moduleOpener } from './certify/openers/module.ts';
export { cmdOpener } from './certify/openers/cmd.ts';
export { lintPath, lintSource } from './lint/index.ts';
export { runScenario, runScenarios } from './scenario/index.ts';
export { main } from './cli/main.ts';
