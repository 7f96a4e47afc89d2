/**
 * One chaos job, `certify` or `run`, in three steps with narrow inputs: run its schedules against
 * the implementation (./run.ts), judge what they showed (./judge.ts, pure), write the run folder
 * (./write.ts). runJobOn hands each step its part; runJob first opens what the job runs on.
 */
import { randomBytes } from 'node:crypto';
import { ExternalCluster } from '../cluster/external.ts';
import { startCluster } from '../cluster/select.ts';
import type { Cluster } from '../cluster/types.ts';
import { exactCapabilities, supportedOperations } from '../patterns/capabilities.ts';
import { ScriptLoadError } from '../scripts/errors.ts';
import { jobChaosOptions, MAX_CLIENTS } from './chaos-options.ts';
import { externalFaultsFor } from './external-faults.ts';
import { judgeJob } from './judge.ts';
import { OpenFailure } from './open-failure.ts';
import { openOnLanes } from './open-lanes.ts';
import { progressReporter } from './progress.ts';
import { runSchedules } from './run.ts';
import type { ImplOpener, Io, JobOptions, JobResult, OpenedImpl } from './types.ts';
import { writeJob } from './write.ts';

/** What a job runs on, opened by its caller: the cluster, and the implementation on it. */
export interface JobEnvironment {
  readonly cluster: Cluster;
  readonly opened: OpenedImpl;
  /** Further local clusters, the implementation opened on each, that the runs are dealt to (--clusters). */
  readonly moreLanes?: readonly { readonly cluster: Cluster; readonly opened: OpenedImpl }[];
  /** A fresh cluster with the implementation opened on it, for a lane whose cluster was lost (lanes.ts). */
  readonly replaceLane?: () => Promise<{ readonly cluster: Cluster; readonly opened: OpenedImpl }>;
}

/**
 * Run one chaos job, opening what it needs: the cluster `options.cluster` names (unless `cluster`
 * is given, as tests that share one do: used as is and left running), and with `options.clusters`
 * above 1 as many local clusters in all, each with the implementation opened on it (./lanes.ts).
 * Whatever it opened is closed and disposed at the end, on every exit.
 */
export async function runJob(options: JobOptions, open: ImplOpener, io: Io, cluster?: Cluster): Promise<JobResult> {
  // A given cluster is one lane; a replayed path is one schedule.
  const lanes = cluster !== undefined || options.path !== undefined ? 1 : options.clusters;
  const start = (lane: number) =>
    startCluster(options.cluster, {
      local: { nodeTimeoutMs: options.nodeTimeoutMs, seed: (options.seed + lane) % 2 ** 31 },
      external: { allowDestructive: options.allowDestructive ?? false },
    });
  const owned: Cluster[] = [];
  const opened: OpenedImpl[] = [];
  try {
    const started = await Promise.allSettled(Array.from({ length: cluster ? 0 : lanes }, (_, lane) => start(lane)));
    for (const s of started) if (s.status === 'fulfilled') owned.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const clusters = cluster ? [cluster] : owned;
    const clients = options.clients ?? MAX_CLIENTS;
    opened.push(await open(clusters[0], clients).catch((error: unknown) => unopened(options.implSpec, error)));
    // The same implementation on the other lanes: it opened once, so a failure here is the environment's.
    if (opened[0].subjects.length > 0) opened.push(...(await openOnLanes(open, clusters.slice(1), clients)));
    const moreLanes = clusters.slice(1).map((c, i) => ({ cluster: c, opened: opened[i + 1] }));
    // A job on several clusters of its own replaces one it loses (closed and disposed with the others).
    let spare = lanes;
    const replaceLane =
      lanes > 1
        ? async () => {
            const fresh = await start(spare++);
            owned.push(fresh);
            opened.push(await open(fresh, clients));
            return { cluster: fresh, opened: opened[opened.length - 1] };
          }
        : undefined;
    return await runJobOn({ cluster: clusters[0], opened: opened[0], moreLanes, replaceLane }, options, io);
  } finally {
    await Promise.allSettled(opened.map((o) => o.close()));
    await Promise.allSettled(owned.map((c) => c.dispose()));
  }
}

/** The job on an environment already opened: run its schedules, judge them, write the run folder. */
export async function runJobOn(environment: JobEnvironment, options: JobOptions, io: Io): Promise<JobResult> {
  const { cluster, opened } = environment;
  const { pattern } = options;
  const { faults, skipped: skippedFaults } = externalFaultsFor(cluster.kind === 'external', cluster.destructive, options.faults);
  if (skippedFaults.length && !options.json) {
    io.stderr.write(`chaoslua: on an external cluster these faults are not run: ${skippedFaults.join(', ')}${cluster.destructive ? '' : ' (--allow-destructive allows script-flush, busy-script and failovers)'}\n`);
  }
  const context = { redisVersion: await cluster.redisVersion(), topology: String(await cluster.topology()), skippedFaults, capabilities: opened.capabilities ?? exactCapabilities(pattern), lanes: 1 + (environment.moreLanes?.length ?? 0) };
  const runId = randomBytes(4).toString('hex');
  if (cluster instanceof ExternalCluster) cluster.claimKeys(`*${runId}-*`);
  // What the implementation declared decides what is drawn, judged and asked of the evidence.
  const { capabilities } = context;
  const chaos = jobChaosOptions({ ...options, faults, runId, ...(capabilities.declared ? { operations: supportedOperations(capabilities) } : {}) });
  const progress = progressReporter(io, options.runs, options.json);
  const moreLanes = (environment.moreLanes ?? []).map((lane) => ({ cluster: lane.cluster, subjects: lane.opened.subjects }));
  const replacements: OpenedImpl[] = [];
  const replaceLane = environment.replaceLane;
  const replace = replaceLane && (async () => {
    if (!options.json) io.stderr.write('chaoslua: a cluster could not be healed; a fresh one takes over its runs (the unfinished run is discarded)\n');
    const fresh = await replaceLane();
    replacements.push(fresh.opened);
    return { cluster: fresh.cluster, subjects: fresh.opened.subjects };
  });
  const ran = await runSchedules({ cluster, opened, pattern, capabilities, chaos, corpus: options.corpus, progress, moreLanes, replace });
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
    outcome: ran.outcome,
    observations: ran.observations,
    // Every lane's implementation speaks for itself: a crash or garbage answer on any lane is a finding.
    implementationFindings: [...new Set([opened, ...(environment.moreLanes ?? []).map((l) => l.opened), ...replacements].flatMap((o) => o.findings()))],
    opened: opened.subjects.length > 0,
  });
  return writeJob(options, opened, context, ran, judged, io);
}

/**
 * The implementation could not be opened (Redis refused a script, createStore threw or hung): the
 * job goes on to its report with that finding and no runs. Anything else is not the job's to judge.
 */
function unopened(implSpec: string | undefined, error: unknown): OpenedImpl {
  let finding: string;
  if (error instanceof OpenFailure) finding = `${error.finding}: ${error.message}`;
  else if (error instanceof ScriptLoadError) finding = `script-load: ${error.message.split('\n')[0]}`;
  else throw error;
  return { impl: implSpec ?? 'implementation', subjects: [], findings: () => [finding], close: async () => undefined };
}
