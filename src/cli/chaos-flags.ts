import { refusedExternalFaults } from '../certify/external-faults.ts';
import { asksAll, faultsForBackend, refusedBackendFaults } from '../certify/partition-faults.ts';
import { parseTopologySpec, TopologySpecError } from '../plan/topology.ts';
import { autoClusters, capacityProblem, MOST_AUTO_CLUSTERS } from '../cluster/capacity.ts';
import { parseClusterSpec } from '../cluster/select.ts';
import { CLOCK_FAULT_NAMES, FAULT_DESCRIPTORS, FAULT_NAMES, PARTITION_FAULT_NAMES } from '../faults/index.ts';
import { parseFaultList } from '../generator/index.ts';
import { DEFAULT_PATTERN, PATTERN_NAMES, PATTERNS, type AnyPattern } from '../patterns/index.ts';
import { durationFlag } from './args.ts';
import { durabilityFlag } from './durability-flag.ts';
import { serverFlag, SERVER_FLAG_HELP } from './server-flag.ts';
import { setFlags } from './set-flag.ts';
import { UsageError } from './exit-codes.ts';
import { probeOutput } from './out-file.ts';
import type { JobOptions } from '../certify/types.ts';
import {
  DRAWN_CLIENTS,
  DRAWN_KEYS,
  JOB_DEFAULTS,
  JOB_INTEGERS,
  jobOptionsFrom,
  JobOptionError,
  JobSettingError,
  type JobConstraints,
} from '../certify/options.ts';

/** Flags `run` and `certify` share (parseArgs option specs). */
export const CHAOS_FLAGS = {
  pattern: { type: 'string' },
  runs: { type: 'string' },
  seed: { type: 'string' },
  path: { type: 'string' },
  faults: { type: 'string' },
  'time-limit': { type: 'string' },
  clients: { type: 'string' },
  keys: { type: 'string' },
  cluster: { type: 'string' },
  topology: { type: 'string' },
  clusters: { type: 'string' },
  server: { type: 'string' },
  report: { type: 'string' },
  'node-timeout': { type: 'string' },
  'shrink-runs': { type: 'string' },
  'shrink-time': { type: 'string' },
  json: { type: 'boolean' },
  'allow-destructive': { type: 'boolean' },
  durability: { type: 'string' },
  set: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The longest pattern name and a space: 'idempotency' filled the old 11 columns and ran into 'lease'. */
const NAME_WIDTH = Math.max(...PATTERN_NAMES.map((n) => n.length)) + 1;

/** Each pattern's settings, from the registry: `    ratelimit  limit   hits a window allows on one key, 1-10 (default 3)`. */
const SETTINGS_HELP = PATTERN_NAMES.flatMap((name) =>
  Object.entries((PATTERNS[name] as AnyPattern).settings ?? {}).map(
    ([setting, s], i) =>
      `                     ${(i === 0 ? name : '').padEnd(NAME_WIDTH)}${setting.padEnd(8)}${s.description}, ${s.min}-${s.max} (default ${s.default})`,
  ),
).join('\n');

export const CHAOS_FLAGS_HELP = `  --pattern P        ${PATTERN_NAMES.join(' | ')} (default ${DEFAULT_PATTERN}),
                     or your own pattern's file: ./pattern.mjs (docs/patterns.md)
  --runs N           schedules to run (default ${JOB_DEFAULTS.runs})
  --seed S           seed of everything random (default: time-based, printed)
  --path P           fast-check path, with --seed, to re-run one shrunk schedule (default: none)
  --faults LIST      comma list of ${FAULT_NAMES.join(', ')}; or all | none (default all);
                     with --cluster netns also ${PARTITION_FAULT_NAMES.join(', ')} (in all there);
                     clocks = ${CLOCK_FAULT_NAMES.join(', ')} (server clocks; named, e.g. all,clocks)
                     on a server that evicts scripts (Redis 7.4+, Valkey 8), all also takes script-evict
  --time-limit T     stop starting runs after T (e.g. 90s, 5m; default ${JOB_DEFAULTS.timeLimitMs / 60_000}m)
  --clients N        logical clients per schedule, ${JOB_INTEGERS.clients.min}-${JOB_INTEGERS.clients.max} (default: drawn from ${DRAWN_CLIENTS.join('-')})
  --keys N           logical keys per schedule, ${JOB_INTEGERS.keys.min}-${JOB_INTEGERS.keys.max} (default: drawn from ${DRAWN_KEYS.join('-')})
  --cluster C        local | compose | netns | redis://host:port[,host:port...] (default local; netns: each
                     node in a network namespace of its own, partitions between nodes; needs root)
  --topology T       cluster | masters | masters:N (default cluster; masters: N independent standalone masters,
                     5 by default, Redlock's deployment, on --cluster local; the lock pattern: lua: through the
                     reference Redlock client, module: and cmd: handed every master (options.masters, the hello's
                     masters); faults: what independent masters can run, docs/clusters.md) | sentinel |
                     sentinel:R (a primary with R replicas, 2 by default, under 3 Sentinels, on --cluster local;
                     clients find the primary through the Sentinels; failover is SENTINEL FAILOVER)
  --clusters N       local clusters the runs are dealt to, side by side, 1-${JOB_INTEGERS.clusters.max} or auto (default auto:
                     two per core, at most ${MOST_AUTO_CLUSTERS}, as memory allows; here ${autoClusters()}; CHAOSLUA_CLUSTERS sets
                     the default); a seed names the same schedules whatever N is
${SERVER_FLAG_HELP}
  --report DIR       where run folders go (default ${JOB_DEFAULTS.reportRoot}/)
  --node-timeout MS  cluster-node-timeout of a local cluster (default ${JOB_DEFAULTS.nodeTimeoutMs})
  --shrink-runs N    most re-runs spent shrinking a failure (default ${JOB_DEFAULTS.shrinkRuns})
  --shrink-time T    stop shrinking a failure after T, keeping the smallest one so far (e.g. 30s, 2m;
                     0 for no limit; default ${JOB_DEFAULTS.shrinkTimeMs / 1000}s)
  --allow-destructive  on an external cluster, allow SCRIPT FLUSH, busy scripts and failovers (other faults
                     need process access and are never run there; default: off)
  --durability wait:N:TIMEOUT  after each write the implementation sends WAIT N TIMEOUT on the connection
                     that ran it and reports how many replicas acknowledged (recorded with the operation);
                     a write acknowledged on N replicas and lost when at most N nodes failed is the
                     violation lost-acknowledged-write (module: and cmd: implementations are told to;
                     default: none, no WAIT)
  --set NAME=VALUE   a setting of the pattern's sessions (repeatable; unset ones keep their default):
${SETTINGS_HELP}
                     recorded in the certificate and the shard plan; a counterexample replays with them
  --json             print the result as JSON on stdout, no progress line (default: off)
  -h, --help         this text`;

/** One line per fault, from its descriptor: what it does and where it can run. */
export const FAULTS_HELP = `faults (--faults):
${FAULT_DESCRIPTORS.map((f) => {
  const where =
    f.backends === 'netns'
      ? ' [--cluster netns only]'
      : f.backends === 'clocks'
        ? ' [local and netns; named, not in all]'
        : f.backends === 'evicting'
          ? ' [in all on a server that evicts: Redis 7.4+, Valkey 8]'
          : f.external === 'client'
            ? ' [any cluster]'
            : f.external === 'destructive'
              ? ' [external: with --allow-destructive]'
              : '';
  return `  ${f.name.padEnd(20)}${f.description}${where}`;
}).join('\n')}`;

type Values = {
  [K in keyof typeof CHAOS_FLAGS]?: (typeof CHAOS_FLAGS)[K] extends { multiple: true }
    ? string[]
    : (typeof CHAOS_FLAGS)[K]['type'] extends 'boolean'
      ? boolean
      : string;
};

/** The JobConstraints field each chaos flag sets, to name the flag when its value is refused. */
const FLAG_OF: Readonly<Record<keyof JobConstraints, string>> = {
  pattern: 'pattern',
  runs: 'runs',
  seed: 'seed',
  path: 'path',
  faults: 'faults',
  allFaults: 'faults',
  timeLimitMs: 'time-limit',
  clients: 'clients',
  keys: 'keys',
  cluster: 'cluster',
  topology: 'topology',
  clusters: 'clusters',
  reportRoot: 'report',
  json: 'json',
  nodeTimeoutMs: 'node-timeout',
  shrinkRuns: 'shrink-runs',
  shrinkTimeMs: 'shrink-time',
  allowDestructive: 'allow-destructive',
  durability: 'durability',
  settings: 'set',
};

/** An integer flag's number; anything but digits is NaN, which the job options refuse with the flag's limits. */
const integer = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : /^\d+$/.test(value) ? Number(value) : NaN;

/**
 * The flags' strings parsed into the job's constraints, then checked once by the job options
 * (src/certify/options.ts, which hold the defaults and the limits); a refused option is a usage
 * error naming its flag and the text given. Everything is checked before a cluster starts: a bad
 * --report or fault list found after the runs would throw their work away.
 */
export function jobOptions(command: 'run' | 'certify', v: Values): JobOptions {
  let faults;
  try {
    faults = parseFaultList(v.faults ?? 'all');
  } catch (error) {
    throw new UsageError(`${command}: --faults: ${(error as Error).message}`);
  }
  const cluster = parseClusterSpec(v.cluster);
  let topology;
  try {
    topology = parseTopologySpec(v.topology);
  } catch (error) {
    if (error instanceof TopologySpecError) throw new UsageError(`${command}: --topology ${error.message}`);
    throw error;
  }
  const refusedBackend = refusedBackendFaults(cluster.kind, topology, faults, v.faults);
  if (refusedBackend) throw new UsageError(`${command}: ${refusedBackend}`);
  faults = faultsForBackend(cluster.kind, faults, v.faults, topology);
  const allowDestructive = v['allow-destructive'] ?? false;
  if (cluster.kind === 'external' && v.faults !== undefined) {
    const refused = refusedExternalFaults(faults, allowDestructive);
    if (refused) throw new UsageError(`${command}: ${refused}`);
  }
  const set = setFlags(command, v.set);
  const reportRoot = probeOutput(command, 'report', v.report ?? JOB_DEFAULTS.reportRoot, 'directory');
  const constraints: JobConstraints = {
    pattern: v.pattern,
    runs: integer(v.runs),
    seed: integer(v.seed),
    path: v.path,
    faults,
    allFaults: asksAll(v.faults),
    timeLimitMs:
      v['time-limit'] === undefined
        ? undefined
        : durationFlag(command, 'time-limit', v['time-limit'], JOB_DEFAULTS.timeLimitMs),
    clients: integer(v.clients),
    keys: integer(v.keys),
    cluster: v.cluster,
    ...(topology.kind === 'cluster' ? {} : { topology }),
    clusters: clustersFlag(command, v.clusters, cluster.kind),
    reportRoot,
    json: v.json,
    nodeTimeoutMs: integer(v['node-timeout']),
    shrinkRuns: integer(v['shrink-runs']),
    shrinkTimeMs:
      v['shrink-time'] === undefined
        ? undefined
        : durationFlag(command, 'shrink-time', v['shrink-time'], JOB_DEFAULTS.shrinkTimeMs),
    allowDestructive,
    settings: set?.settings,
  };
  const options = refuse(command, v, () => jobOptionsFrom(command, constraints), set?.texts);
  // Parsed last, as before the options had a module of their own: a bad number is named before it.
  const durable =
    v.durability === undefined ? options : { ...options, durability: durabilityFlag(command, v.durability)! };
  if (durable.durability && topology.kind === 'masters')
    throw new UsageError(
      `${command}: --durability cannot apply on --topology masters (independent masters have no replicas to wait for)`,
    );
  if (durable.durability && topology.kind === 'sentinel')
    throw new UsageError(
      `${command}: --durability is not offered on --topology sentinel yet (its WAIT is sent on a cluster client's node connection)`,
    );
  // Resolved last, once every other flag is known good: a named server may be installed here.
  const server = serverFlag(command, v.server, cluster.kind);
  return server ? { ...durable, server } : durable;
}

/**
 * --clusters: a number, or auto (the default, from CHAOSLUA_CLUSTERS when set): as many as the
 * machine holds for a local cluster, 1 for any other (a job starts lanes only locally). A number the
 * machine's memory cannot hold is refused before anything starts.
 */
function clustersFlag(command: string, flag: string | undefined, kind: string): number | undefined {
  const text = flag ?? process.env.CHAOSLUA_CLUSTERS;
  if (text === undefined || text === 'auto') return kind === 'local' ? autoClusters() : undefined;
  // Named as the user gave it: the flag, or the variable that stood in for it.
  const given = flag === undefined ? `CHAOSLUA_CLUSTERS=${shown(text)}` : `--clusters ${shown(text)}`;
  const n = integer(text)!;
  // The limits first: a number no machine may ask for is refused as such, not for this one's memory.
  const { min, max } = JOB_INTEGERS.clusters;
  if (!(Number.isInteger(n) && n >= min && n <= max)) {
    if (flag === undefined)
      throw new UsageError(`${command}: ${given}: must be an integer in [${min}, ${max}] or auto`);
    return n; // the job options name the flag and its limits
  }
  const problem = n > 1 ? capacityProblem(n) : undefined;
  if (problem) throw new UsageError(`${command}: ${given}: ${problem}`);
  return n;
}

/** A value as typed, cut to 40 characters with its length when longer. */
const shown = (text: string): string =>
  text.length > 40 ? `${text.slice(0, 40)}... (${text.length} characters)` : text;

/** The job options, or the option they refuse as a usage error in the CLI's words: its flag and the text given. */
function refuse(
  command: string,
  v: Values,
  build: () => JobOptions,
  setTexts: Readonly<Record<string, string>> = {},
): JobOptions {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof JobOptionError)) throw error;
    // The one --set of several that is wrong, quoted as given.
    if (error instanceof JobSettingError)
      throw new UsageError(`${command}: --set ${error.setting}=${setTexts[error.setting]}: ${error.problem}`);
    const flag = FLAG_OF[error.option];
    if (error.needs)
      throw new UsageError(`${command}: --${flag} needs the --${FLAG_OF[error.needs]} it was found with`);
    throw new UsageError(`${command}: --${flag} ${error.problem}, got '${shown(String(v[flag as keyof Values]))}'`);
  }
}
