/**
 * A chaos job's options as constraints (fast-check's pattern): `JobConstraints` is what a caller may
 * set, every field optional and every number a number; `jobOptionsFrom` fills the defaults and
 * checks the whole bag once, throwing a `JobOptionError` that names the option. The CLI only parses
 * its strings into constraints (src/cli/chaos-flags.ts); code that certifies from a program calls
 * `jobOptionsFrom` itself, with the same defaults and the same limits.
 */
import path from 'node:path';
import { FAULT_NAMES, isFaultName, type FaultName } from '../faults/index.ts';
import { DEFAULT_PATTERN, isPatternName, knownPatternNames, patternNamed } from '../patterns/index.ts';
import type { AnyPattern } from '../patterns/types.ts';
import { fillSettings, SettingError } from '../generator/settings.ts';
import { splitFaultSettings } from '../generator/fault-settings.ts';
import type { Durability } from '../plan/durability.ts';
import type { JobOptions } from './types.ts';
import { NODE_TIMEOUT_MS } from '../plan/node-timeout.ts';
import { describeTopology, type TopologySpec } from '../plan/topology.ts';

export interface JobConstraints {
  /** A registry name, or a pattern of one's own. Default DEFAULT_PATTERN (the registry's first). */
  pattern?: string | AnyPattern;
  /** Schedules to run. Default 40. */
  runs?: number;
  /** Seed of everything random. Default: time-based. */
  seed?: number;
  /** fast-check path, with the seed it was found with, to re-run one shrunk schedule. */
  path?: string;
  /** Default: every fault `all` means (FAULT_NAMES). */
  faults?: readonly FaultName[];
  /** The faults are `all` (`--faults all`, or none given): the job adds what `all` takes on the server
   *  it probes (script-evict where scripts are evicted). Default: true when `faults` is not given. */
  allFaults?: boolean;
  /** Stop starting runs after this long. Default 5 min. */
  timeLimitMs?: number;
  /** Logical clients per schedule. Default: drawn from DRAWN_CLIENTS. */
  clients?: number;
  /** Logical keys per schedule. Default: drawn from DRAWN_KEYS. */
  keys?: number;
  /** Cluster spec (local | compose | netns | redis://...). Default local. */
  cluster?: string;
  /** `--topology`: a Redis Cluster (default), independent masters (local only; the lock pattern only) or a primary under Sentinel (local only). */
  topology?: TopologySpec;
  /** Local clusters the runs are dealt to, side by side (./lanes.ts). Default 1; the CLI's default is the machine's (src/cluster/capacity.ts). */
  clusters?: number;
  /** Where run folders go. Default reports/ (resolved against the working directory). */
  reportRoot?: string;
  json?: boolean;
  /** cluster-node-timeout of a local cluster, ms. Default NODE_TIMEOUT_MS.default. */
  nodeTimeoutMs?: number;
  /** Most re-runs spent shrinking a failure. Default 30. */
  shrinkRuns?: number;
  /** Stop shrinking a failure after this long (the smallest failure so far is kept); 0: no limit. Default 30 s. */
  shrinkTimeMs?: number;
  /** External clusters only: allow SCRIPT FLUSH, busy scripts and failovers. Default false. */
  allowDestructive?: boolean;
  durability?: Durability;
  /** The pattern's settings by name (its descriptor's `settings`: e.g. ratelimit's limit and window), and
   *  the faults' in the set (client-clock's clock-skew, clock-step). Default: each one's default. */
  settings?: Readonly<Record<string, number>>;
}

/** Logical clients an implementation is opened with; a schedule uses 2 to this many. */
export const MAX_CLIENTS = 8;
/** What a schedule draws its clients and keys from when the job fixes neither. */
export const DRAWN_CLIENTS: readonly [number, number] = [2, MAX_CLIENTS];
export const DRAWN_KEYS: readonly [number, number] = [1, 4];

/** The integer options, each with its limits and its default (absent: drawn per schedule, or time-based). */
export const JOB_INTEGERS = {
  runs: { min: 1, max: 1_000_000, default: 40 },
  seed: { min: 0, max: 2 ** 31 - 1 },
  clients: { min: 1, max: MAX_CLIENTS },
  keys: { min: 1, max: 16 },
  nodeTimeoutMs: NODE_TIMEOUT_MS,
  shrinkRuns: { min: 0, max: 10_000, default: 30 },
  clusters: { min: 1, max: 16, default: 1 },
} as const satisfies Record<string, { min: number; max: number; default?: number }>;

export type JobInteger = keyof typeof JOB_INTEGERS;

/** `durability`'s limits: replicas beyond any cluster's (Redis counts at most its connected replicas),
 *  and WAIT blocks the operation, so longer than the runner's 10 s bound on one operation would only make it indeterminate. */
export const DURABILITY_LIMITS = { replicas: { min: 1, max: 16 }, timeoutMs: { min: 1, max: 10_000 } } as const;
export const DURABILITY_PROBLEM = `must be wait:N:TIMEOUT (N replicas in [${DURABILITY_LIMITS.replicas.min}, ${DURABILITY_LIMITS.replicas.max}], TIMEOUT ms in [${DURABILITY_LIMITS.timeoutMs.min}, ${DURABILITY_LIMITS.timeoutMs.max}]; WAIT 0 would block forever)`;

/** Whether a durability request is within its limits. */
export function durabilityInLimits(d: Durability): boolean {
  const within = (n: number, l: { min: number; max: number }) => Number.isInteger(n) && n >= l.min && n <= l.max;
  return within(d.replicas, DURABILITY_LIMITS.replicas) && within(d.timeoutMs, DURABILITY_LIMITS.timeoutMs);
}

export const JOB_DEFAULTS = {
  pattern: DEFAULT_PATTERN,
  runs: JOB_INTEGERS.runs.default,
  faults: FAULT_NAMES,
  timeLimitMs: 300_000,
  cluster: 'local',
  reportRoot: 'reports',
  nodeTimeoutMs: JOB_INTEGERS.nodeTimeoutMs.default,
  shrinkRuns: JOB_INTEGERS.shrinkRuns.default,
  shrinkTimeMs: 30_000,
} as const;

/** An option out of its limits: `option` is the JobConstraints field, `problem` what is wrong, without the value. */
export class JobOptionError extends RangeError {
  constructor(
    readonly option: keyof JobConstraints,
    readonly problem: string,
    readonly got: unknown,
    /** The option this one is meaningless without. */
    readonly needs?: keyof JobConstraints,
  ) {
    super(`${option} ${problem}, got ${JSON.stringify(got)}`);
    this.name = 'JobOptionError';
  }
}

/**
 * A setting the pattern does not declare, or out of its limits: `setting` is the name given,
 * `problem` names it and its limits (or the pattern and the settings it has), without the value.
 */
export class JobSettingError extends JobOptionError {
  constructor(
    readonly setting: string,
    problem: string,
    got: unknown,
  ) {
    super('settings', problem, got);
    this.message = `settings: ${problem}, got ${JSON.stringify(got)}`;
  }
}

/** The checks in the order a caller hears of them: the first option wrong is the one named. */
function integer(c: JobConstraints, option: JobInteger): number | undefined {
  const value = c[option];
  if (value === undefined) return undefined;
  const { min, max } = JOB_INTEGERS[option];
  if (!Number.isInteger(value) || value < min || value > max)
    throw new JobOptionError(option, `must be an integer in [${min}, ${max}]`, value);
  return value;
}

/** The job's options, defaults filled, or a JobOptionError naming the first option out of its limits. */
export function jobOptionsFrom(command: JobOptions['command'], c: JobConstraints = {}): JobOptions {
  const pattern = resolvePattern(c.pattern ?? JOB_DEFAULTS.pattern);
  const unknown = (c.faults ?? []).filter((f) => !isFaultName(f));
  if (unknown.length)
    throw new JobOptionError('faults', 'must name known faults (FAULT_NAMES, PARTITION_FAULT_NAMES)', unknown);
  // A path is a place in the runs one seed drew: with another seed it names another schedule.
  if (c.path !== undefined && c.seed === undefined)
    throw new JobOptionError('path', 'needs the seed it was found with', c.path, 'seed');
  const runs = integer(c, 'runs') ?? JOB_DEFAULTS.runs;
  const seed = integer(c, 'seed') ?? Date.now() % 2 ** 31;
  const timeLimitMs = c.timeLimitMs ?? JOB_DEFAULTS.timeLimitMs;
  if (!Number.isFinite(timeLimitMs) || timeLimitMs < 0)
    throw new JobOptionError('timeLimitMs', 'must be a duration of 0 ms or more', timeLimitMs);
  const clients = integer(c, 'clients');
  const keys = integer(c, 'keys');
  const nodeTimeoutMs = integer(c, 'nodeTimeoutMs') ?? JOB_DEFAULTS.nodeTimeoutMs;
  const shrinkRuns = integer(c, 'shrinkRuns') ?? JOB_DEFAULTS.shrinkRuns;
  const shrinkTimeMs = c.shrinkTimeMs ?? JOB_DEFAULTS.shrinkTimeMs;
  if (!Number.isFinite(shrinkTimeMs) || shrinkTimeMs < 0)
    throw new JobOptionError('shrinkTimeMs', 'must be a duration of 0 ms or more', shrinkTimeMs);
  const clusters = integer(c, 'clusters') ?? JOB_INTEGERS.clusters.default;
  // Lanes are clusters this job starts and fails over at will: a local one, not one it is given.
  if (clusters > 1 && !['', 'local'].includes((c.cluster ?? JOB_DEFAULTS.cluster).trim()))
    throw new JobOptionError('clusters', 'above 1 needs --cluster local (the job starts each one)', clusters);
  if (c.durability && !durabilityInLimits(c.durability))
    throw new JobOptionError('durability', DURABILITY_PROBLEM, c.durability);
  if (c.topology?.kind === 'masters') checkMasters(c, pattern, c.topology);
  if (c.topology?.kind === 'sentinel') checkSentinel(c, c.topology);
  const faults = [...(c.faults ?? JOB_DEFAULTS.faults)];
  const { settings, faultSettings } = jobSettings(pattern, faults, c.settings);
  return {
    command,
    pattern,
    runs,
    seed,
    path: c.path,
    faults,
    ...((c.allFaults ?? c.faults === undefined) ? { allFaults: true } : {}),
    timeLimitMs,
    clients,
    keys,
    cluster: c.cluster ?? JOB_DEFAULTS.cluster,
    ...(c.topology && c.topology.kind !== 'cluster' ? { topology: c.topology } : {}),
    clusters,
    reportRoot: path.resolve(c.reportRoot ?? JOB_DEFAULTS.reportRoot),
    json: c.json ?? false,
    nodeTimeoutMs,
    shrinkRuns,
    shrinkTimeMs,
    allowDestructive: c.allowDestructive ?? false,
    ...(c.durability === undefined ? {} : { durability: c.durability }),
    // Every setting filled, so the job's record (certificate, shard plan, run folder) says what ran
    // even where the defaults did; a pattern without settings has none to record.
    ...(Object.keys(settings).length ? { settings } : {}),
    ...(Object.keys(faultSettings).length ? { faultSettings } : {}),
  };
}

/**
 * Independent masters are started here, hold no replica to WAIT for, and only a pattern with a
 * client for several masters (the lock's Redlock) runs on them: anything else, one line saying so.
 */
function checkMasters(c: JobConstraints, pattern: AnyPattern, topology: TopologySpec): void {
  const given = describeTopology(topology);
  if (!['', 'local'].includes((c.cluster ?? JOB_DEFAULTS.cluster).trim()))
    throw new JobOptionError('topology', 'masters needs --cluster local (the harness starts the masters)', given);
  if (!pattern.openOnMasters)
    throw new JobOptionError(
      'topology',
      `masters runs only the lock pattern (its reference Redlock client), not --pattern ${pattern.name}`,
      given,
    );
  if (c.durability) throw new JobOptionError('topology', 'masters has no replicas for --durability to wait for', given);
}

/**
 * A Sentinel deployment is started here too. --durability is not offered there yet: its WAIT is
 * sent on a cluster node's connection (src/subject/durable-reference.ts), which a client that finds
 * the primary through the Sentinels does not have. One line saying so.
 */
function checkSentinel(c: JobConstraints, topology: TopologySpec): void {
  const given = describeTopology(topology);
  if (!['', 'local'].includes((c.cluster ?? JOB_DEFAULTS.cluster).trim()))
    throw new JobOptionError('topology', 'sentinel needs --cluster local (the harness starts the Sentinels)', given);
  if (c.durability)
    throw new JobOptionError(
      'topology',
      "sentinel does not take --durability yet (its WAIT is a cluster client's)",
      given,
    );
}

/** The pattern a name stands for (resolved here once: everything below is handed the value). */
function resolvePattern(given: string | AnyPattern): AnyPattern {
  if (typeof given !== 'string') return given;
  const known = knownPatternNames();
  if (!isPatternName(given))
    throw new JobOptionError(
      'pattern',
      `must be ${known.slice(0, -1).join(', ')} or ${known.at(-1)}, or a pattern file (./my-pattern.mjs)`,
      given,
    );
  return patternNamed(given);
}

/** The pattern's settings and the faults' (a --set name a fault declares is the fault's), filled, or a JobSettingError for the first one given that is refused. */
function jobSettings(
  pattern: AnyPattern,
  faults: readonly FaultName[],
  given: JobConstraints['settings'],
): { settings: Readonly<Record<string, number>>; faultSettings: Readonly<Record<string, number>> } {
  try {
    const split = splitFaultSettings(faults, given);
    return { settings: fillSettings(pattern, split.pattern), faultSettings: split.faults };
  } catch (error) {
    if (error instanceof SettingError) throw new JobSettingError(error.setting, error.problem, error.got);
    throw error;
  }
}
