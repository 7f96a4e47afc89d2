import fs from 'node:fs';
import path from 'node:path';
import { refusedExternalFaults } from '../certify/external-faults.ts';
import { faultsForBackend, refusedPartitionFaults } from '../certify/partition-faults.ts';
import { parseClusterSpec } from '../cluster/select.ts';
import { FAULT_DESCRIPTORS, FAULT_NAMES, PARTITION_FAULT_NAMES } from '../faults/index.ts';
import { parseFaultList } from '../generator/index.ts';
import { DEFAULT_PATTERN, isPatternName, PATTERN_NAMES } from '../patterns/index.ts';
import { durationFlag, intFlag } from './args.ts';
import { durabilityFlag } from './durability-flag.ts';
import { UsageError } from './exit-codes.ts';
import type { JobOptions } from '../certify/types.ts';

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
  report: { type: 'string' },
  'node-timeout': { type: 'string' },
  'shrink-runs': { type: 'string' },
  json: { type: 'boolean' },
  'allow-destructive': { type: 'boolean' },
  durability: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const CHAOS_FLAGS_HELP = `  --pattern P        ${PATTERN_NAMES.join(' | ')} (default ${DEFAULT_PATTERN})
  --runs N           schedules to run (default 40)
  --seed S           seed of everything random (default: time-based, printed)
  --path P           fast-check path, with --seed, to re-run one shrunk schedule
  --faults LIST      comma list of ${FAULT_NAMES.join(', ')}; or all | none (default all);
                     with --cluster netns also ${PARTITION_FAULT_NAMES.join(', ')} (in all there)
  --time-limit T     stop starting runs after T (e.g. 90s, 5m; default 5m)
  --clients N        logical clients per schedule, 1-8 (default: drawn from 2-8)
  --keys N           logical keys per schedule, 1-16 (default: drawn from 1-4)
  --cluster C        local | compose | netns | redis://host:port[,host:port...] (default local; netns: each
                     node in a network namespace of its own, partitions between nodes; needs root)
  --report DIR       where run folders go (default reports/)
  --node-timeout MS  cluster-node-timeout of a local cluster (default 1000)
  --shrink-runs N    most re-runs spent shrinking a failure (default 30)
  --allow-destructive  on an external cluster, allow SCRIPT FLUSH, busy scripts and failovers (other faults
                     need process access and are never run there)
  --durability wait:N:TIMEOUT  after each write the implementation sends WAIT N TIMEOUT on the connection
                     that ran it and reports how many replicas acknowledged (recorded with the operation);
                     a write acknowledged on N replicas and lost when at most N nodes failed is the
                     violation lost-acknowledged-write (module: and cmd: implementations are told to)
  --json             print the result as JSON on stdout, no progress line
  -h, --help         this text`;

/** One line per fault, from its descriptor: what it does and where it can run. */
export const FAULTS_HELP = `faults (--faults):
${FAULT_DESCRIPTORS.map((f) => {
  const where = f.backends === 'netns' ? ' [--cluster netns only]' : f.external === 'client' ? ' [any cluster]' : f.external === 'destructive' ? ' [external: with --allow-destructive]' : '';
  return `  ${f.name.padEnd(20)}${f.description}${where}`;
}).join('\n')}`;

type Values = { [K in keyof typeof CHAOS_FLAGS]?: (typeof CHAOS_FLAGS)[K]['type'] extends 'boolean' ? boolean : string };

export function jobOptions(command: 'run' | 'certify', v: Values): JobOptions {
  const pattern = v.pattern ?? DEFAULT_PATTERN;
  if (!isPatternName(pattern)) {
    throw new UsageError(`${command}: --pattern must be ${PATTERN_NAMES.slice(0, -1).join(', ')} or ${PATTERN_NAMES.at(-1)}, got '${v.pattern}'`);
  }
  let faults;
  try {
    faults = parseFaultList(v.faults ?? 'all');
  } catch (error) {
    throw new UsageError(`${command}: --faults: ${(error as Error).message}`);
  }
  if (v.path !== undefined && v.seed === undefined) throw new UsageError(`${command}: --path needs the --seed it was found with`);
  // Everything is checked before a cluster starts: a bad --report or fault list found after the
  // runs would throw their work away.
  const cluster = parseClusterSpec(v.cluster);
  const refusedPartition = refusedPartitionFaults(cluster.kind, faults);
  if (refusedPartition) throw new UsageError(`${command}: ${refusedPartition}`);
  faults = faultsForBackend(cluster.kind, faults, v.faults);
  const allowDestructive = v['allow-destructive'] ?? false;
  if (cluster.kind === 'external' && v.faults !== undefined) {
    const refused = refusedExternalFaults(faults, allowDestructive);
    if (refused) throw new UsageError(`${command}: ${refused}`);
  }
  const reportRoot = path.resolve(v.report ?? 'reports');
  const unwritable = unwritableDirectory(reportRoot);
  if (unwritable) throw new UsageError(`${command}: --report ${v.report ?? 'reports'}: ${unwritable}`);
  return {
    command,
    pattern,
    runs: intFlag(command, 'runs', v.runs, 40, 1, 1_000_000),
    seed: intFlag(command, 'seed', v.seed, Date.now() % 2 ** 31, 0, 2 ** 31 - 1),
    path: v.path,
    faults,
    timeLimitMs: durationFlag(command, 'time-limit', v['time-limit'], 300_000),
    clients: v.clients === undefined ? undefined : intFlag(command, 'clients', v.clients, 2, 1, 8),
    keys: v.keys === undefined ? undefined : intFlag(command, 'keys', v.keys, 2, 1, 16),
    cluster: v.cluster ?? 'local',
    reportRoot,
    json: v.json ?? false,
    nodeTimeoutMs: intFlag(command, 'node-timeout', v['node-timeout'], 1_000, 100, 60_000),
    shrinkRuns: intFlag(command, 'shrink-runs', v['shrink-runs'], 30, 0, 10_000),
    allowDestructive,
    ...(v.durability === undefined ? {} : { durability: durabilityFlag(command, v.durability) }),
  };
}

/** Why run folders could not be created under `dir` (it, or its nearest existing parent, must be a writable directory). */
export function unwritableDirectory(dir: string): string | undefined {
  let probe = dir;
  while (!fs.existsSync(probe)) {
    const parent = path.dirname(probe);
    if (parent === probe) break;
    probe = parent;
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(probe);
  } catch (error) {
    return `cannot be read (${(error as Error).message.split('\n')[0]})`;
  }
  if (!stat.isDirectory()) return probe === dir ? 'is a file, not a directory' : `${probe} is a file, not a directory`;
  try {
    fs.accessSync(probe, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    return probe === dir ? 'is not writable' : `${probe} is not writable`;
  }
  return undefined;
}
