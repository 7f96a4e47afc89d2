/**
 * One chaos job, `certify` or `run`, in three steps with narrow inputs: run its schedules against
 * the implementation (./run.ts), judge what they showed (./judge.ts, pure), write the run folder
 * (./write.ts). runJobOn hands each step its part, on an environment opened before it (./environment.ts);
 * runJob opens one and runs the job on it.
 */
import { randomBytes } from 'node:crypto';
import { ExternalCluster } from '../cluster/external.ts';
import { probeServer } from '../cluster/features.ts';
import type { Cluster, Topology } from '../cluster/types.ts';
import type { Durability } from '../plan/durability.ts';
import { exactCapabilities, supportedOperations } from '../patterns/capabilities.ts';
import { jobChaosOptions } from './chaos-options.ts';
import { openEnvironment, type JobEnvironment } from './environment.ts';
import { externalFaultsFor } from './external-faults.ts';
import { faultsForServer } from './partition-faults.ts';
import { judgeJob } from './judge.ts';
import { progressReporter } from './progress.ts';
import { runSchedules } from './run.ts';
import type { ImplOpener, Io, JobOptions, JobResult } from './types.ts';
import { writeJob } from './write.ts';

/**
 * Run one chaos job, opening what it needs (./environment.ts): the cluster `options.cluster` names
 * (unless `cluster` is given, as tests that share one do: used as is and left running), and with
 * `options.clusters` above 1 as many local clusters in all, never more than the runs (a lane
 * without a run would start a cluster for nothing). A replayed path is one schedule: one lane.
 * Whatever it opened is closed and disposed at the end, on every exit.
 */
export async function runJob(options: JobOptions, open: ImplOpener, io: Io, cluster?: Cluster): Promise<JobResult> {
  const clusters = options.path !== undefined ? 1 : Math.max(1, Math.min(options.clusters, options.runs));
  await using environment = await openEnvironment({ ...options, clusters }, open, cluster);
  // Awaited here: the environment is disposed when this block ends, which must be after the job.
  return await runJobOn(environment, options, io);
}

/** The job on an environment already opened: run its schedules, judge them, write the run folder. */
export async function runJobOn(environment: JobEnvironment, options: JobOptions, io: Io): Promise<JobResult> {
  const [{ cluster, opened }, ...moreLanes] = environment.lanes;
  const { pattern } = options;
  // Probed on the running node, never taken from --server's name; a cluster that cannot be probed
  // (a stand-in in tests) still says its version.
  const server = await probeServer(cluster).catch(() => undefined);
  const { faults, skipped: skippedFaults } = externalFaultsFor(
    cluster.kind === 'external',
    cluster.destructive,
    faultsForServer(options.faults, options.allFaults ?? false, server?.features, options.topology),
  );
  if (skippedFaults.length && !options.json) {
    io.stderr.write(
      `chaoslua: on an external cluster these faults are not run: ${skippedFaults.join(', ')}${cluster.destructive ? '' : ' (--allow-destructive allows script-flush, busy-script and failovers)'}\n`,
    );
  }
  const topology = await cluster.topology();
  const context = {
    redisVersion: server?.version ?? (await cluster.redisVersion()),
    server,
    ...(cluster.image ? { image: cluster.image } : {}),
    topology: String(topology),
    skippedFaults,
    capabilities: opened.capabilities ?? exactCapabilities(pattern),
    lanes: environment.lanes.length,
  };
  const runId = randomBytes(4).toString('hex');
  if (cluster instanceof ExternalCluster) cluster.claimKeys(`*${runId}-*`);
  // What the implementation declared decides what is drawn, judged and asked of the evidence.
  const { capabilities } = context;
  const chaos = jobChaosOptions({
    ...options,
    faults,
    runId,
    ...(capabilities.declared ? { operations: supportedOperations(capabilities) } : {}),
  });
  const progress = progressReporter(io, options.runs, options.json);
  const replaceLane = environment.replace;
  const replace =
    replaceLane &&
    (async () => {
      if (!options.json)
        io.stderr.write(
          'chaoslua: a cluster could not be healed; a fresh one takes over its runs (the unfinished run is discarded)\n',
        );
      const fresh = await replaceLane();
      return { cluster: fresh.cluster, subjects: fresh.opened.subjects };
    });
  const lanes = moreLanes.map((lane) => ({ cluster: lane.cluster, subjects: lane.opened.subjects }));
  const ran = await runSchedules({
    cluster,
    opened,
    pattern,
    capabilities,
    chaos,
    corpus: options.corpus,
    progress,
    moreLanes: lanes,
    replace,
  });
  const judged = judgeJob({
    pattern,
    capabilities,
    command: options.command,
    runsAsked: options.runs,
    timeLimitMs: options.timeLimitMs,
    faults,
    replayingPath: options.path !== undefined,
    shard: options.shard !== undefined,
    durability: options.durability !== undefined,
    durabilityNotApplicable: options.durability && durabilityBeyond(options.durability, topology),
    outcome: ran.outcome,
    observations: ran.observations,
    // Every lane's implementation speaks for itself: a crash or garbage answer on any lane is a finding.
    implementationFindings: environment.findings(),
    opened: opened.subjects.length > 0,
  });
  return writeJob(options, opened, context, ran, judged, io);
}

/**
 * Why WAIT N can never be answered N on this topology: a master with fewer replicas acknowledges a
 * write on fewer, so no write is protected and lost-acknowledged-write cannot be broken or passed.
 */
export function durabilityBeyond(durability: Durability, topology: Topology): string | undefined {
  const masters = topology.nodes.filter((n) => n.role === 'master');
  const fewest = Math.min(
    ...masters.map((m) => topology.nodes.filter((n) => n.role === 'replica' && n.masterIndex === m.node.index).length),
  );
  if (masters.length === 0 || fewest >= durability.replicas) return undefined;
  return `--durability waits for ${durability.replicas} replica(s), but a master of this cluster has ${fewest}: no write is ever acknowledged by ${durability.replicas}, so none can be lost`;
}
