/**
 * One chaos job, `certify` or `run`, in three steps with narrow inputs: run its schedules against
 * the implementation (./run.ts), judge what they showed (./judge.ts, pure), write the run folder
 * (./write.ts). This file opens what the steps need and hands each its part.
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
import { progressReporter } from './progress.ts';
import { runSchedules } from './run.ts';
import type { ImplOpener, Io, JobOptions, JobResult, OpenedImpl } from './types.ts';
import { writeJob } from './write.ts';

/**
 * Run one chaos job. With `cluster` given (tests sharing one), it is used as is and left running;
 * otherwise the job starts the cluster `options.cluster` names and disposes it at the end.
 */
export async function runJob(options: JobOptions, open: ImplOpener, io: Io, cluster?: Cluster): Promise<JobResult> {
  const owned = cluster === undefined;
  const active =
    cluster ??
    (await startCluster(options.cluster, {
      local: { nodeTimeoutMs: options.nodeTimeoutMs, seed: options.seed % 2 ** 31 },
      external: { allowDestructive: options.allowDestructive ?? false },
    }));
  try {
    const opened = await open(active, options.clients ?? MAX_CLIENTS).catch((error: unknown) => unopened(options, error));
    try {
      return await execute(options, active, opened, io);
    } finally {
      await opened.close();
    }
  } finally {
    if (owned) await active.dispose();
  }
}

async function execute(options: JobOptions, cluster: Cluster, opened: OpenedImpl, io: Io): Promise<JobResult> {
  const { pattern } = options;
  const { faults, skipped: skippedFaults } = externalFaultsFor(cluster.kind === 'external', cluster.destructive, options.faults);
  if (skippedFaults.length && !options.json) {
    io.stderr.write(`chaoslua: on an external cluster these faults are not run: ${skippedFaults.join(', ')}${cluster.destructive ? '' : ' (--allow-destructive allows script-flush, busy-script and failovers)'}\n`);
  }
  const context = { redisVersion: await cluster.redisVersion(), topology: String(await cluster.topology()), skippedFaults, capabilities: opened.capabilities ?? exactCapabilities(pattern) };
  const runId = randomBytes(4).toString('hex');
  if (cluster instanceof ExternalCluster) cluster.claimKeys(`*${runId}-*`);
  // What the implementation declared decides what is drawn, judged and asked of the evidence.
  const { capabilities } = context;
  const chaos = jobChaosOptions({ ...options, faults, runId, ...(capabilities.declared ? { operations: supportedOperations(capabilities) } : {}) });
  const progress = progressReporter(io, options.runs, options.json);
  const ran = await runSchedules({ cluster, opened, pattern, capabilities, chaos, corpus: options.corpus, progress });
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
    implementationFindings: opened.findings(),
    opened: opened.subjects.length > 0,
  });
  return writeJob(options, opened, context, ran, judged, io);
}

/**
 * The implementation could not be opened (Redis refused a script, createStore threw or hung): the
 * job goes on to its report with that finding and no runs. Anything else is not the job's to judge.
 */
function unopened(options: JobOptions, error: unknown): OpenedImpl {
  let finding: string;
  if (error instanceof OpenFailure) finding = `${error.finding}: ${error.message}`;
  else if (error instanceof ScriptLoadError) finding = `script-load: ${error.message.split('\n')[0]}`;
  else throw error;
  return { impl: options.implSpec ?? 'implementation', subjects: [], findings: () => [finding], close: async () => undefined };
}
