/**
 * What a job runs on, opened before it starts: its lanes (a cluster each, the implementation opened
 * on it) and, for a job of several clusters of its own, a way to replace a lane it loses. The job
 * (./job.ts) is handed this and never starts or stops a cluster itself; whatever the environment
 * opened, it closes and disposes on every exit (`await using`).
 */
import { startCluster } from '../cluster/select.ts';
import type { Cluster } from '../cluster/types.ts';
import type { TopologySpec } from '../plan/topology.ts';
import { ScriptLoadError } from '../scripts/errors.ts';
import { MAX_CLIENTS } from './chaos-options.ts';
import { OpenFailure } from './open-failure.ts';
import { openOnLanes } from './open-lanes.ts';
import type { ImplOpener, OpenedImpl } from './types.ts';

/** One cluster of the job, with the implementation opened on it. */
export interface OpenedLane {
  readonly cluster: Cluster;
  readonly opened: OpenedImpl;
}

export interface JobEnvironment extends AsyncDisposable {
  /** The job's lanes; the first one also replays the corpus and a `--path`. */
  readonly lanes: readonly [OpenedLane, ...OpenedLane[]];
  /** A fresh lane for one whose cluster was lost (./lanes.ts); absent: a lost cluster ends the job. */
  readonly replace?: () => Promise<OpenedLane>;
  /** What every implementation opened here said of itself (crash, garbage answers), replacements too. */
  findings(): string[];
}

/** Where a job runs: the part of its options that opens the environment, nothing else. */
export interface EnvironmentSpec {
  /** `--cluster`: local, compose, netns or redis://... */
  readonly cluster: string;
  /** How many local clusters (1 on a given cluster). */
  readonly clusters: number;
  readonly nodeTimeoutMs: number;
  /** The job's seed: a local cluster's own draws (its ports aside) follow it. */
  readonly seed: number;
  readonly allowDestructive?: boolean;
  /** Logical clients the implementation opens; default MAX_CLIENTS. */
  readonly clients?: number;
  /** The implementation as the user named it, for the finding when it cannot be opened. */
  readonly implSpec?: string;
  /** `--server`: the binary a local cluster runs (default: redisServerBinary()). */
  readonly server?: { readonly binary: string };
  /** `--topology`: independent masters instead of a Redis Cluster. Absent: a Redis Cluster. */
  readonly topology?: TopologySpec;
}

/**
 * Start the clusters `spec` names (or use `given`, as tests that share one do: left running) and
 * open the implementation on each. An implementation that cannot be opened is not an error here:
 * its lane has no subjects and its finding is the job's verdict.
 */
export async function openEnvironment(
  spec: EnvironmentSpec,
  open: ImplOpener,
  given?: Cluster,
): Promise<JobEnvironment> {
  const lanes = given ? 1 : spec.clusters;
  const clients = spec.clients ?? MAX_CLIENTS;
  const start = (lane: number) =>
    startCluster(spec.cluster, {
      local: {
        nodeTimeoutMs: spec.nodeTimeoutMs,
        seed: (spec.seed + lane) % 2 ** 31,
        ...(spec.server ? { redisServer: spec.server.binary } : {}),
      },
      external: { allowDestructive: spec.allowDestructive ?? false },
      ...(spec.topology ? { topology: spec.topology } : {}),
    });
  const owned: Cluster[] = [];
  const opened: OpenedImpl[] = [];
  let clusters: Cluster[] = [];
  const dispose = async () => {
    await Promise.allSettled(opened.map((o) => o.close()));
    await Promise.allSettled(owned.map((c) => c.dispose()));
  };
  try {
    const started = await Promise.allSettled(Array.from({ length: given ? 0 : lanes }, (_, lane) => start(lane)));
    for (const s of started) if (s.status === 'fulfilled') owned.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    clusters = given ? [given] : [...owned];
    opened.push(await open(clusters[0], clients).catch((error: unknown) => unopened(spec.implSpec, error)));
    // The same implementation on the other lanes: it opened once, so a failure here is the environment's.
    if (opened[0].subjects.length > 0) opened.push(...(await openOnLanes(open, clusters.slice(1), clients)));
  } catch (error) {
    await dispose();
    throw error;
  }
  const [first, ...more] = opened.map((o, i) => ({ cluster: clusters[i], opened: o }));
  // A job on several clusters of its own replaces one it loses (closed and disposed with the others).
  let spare = lanes;
  const replace =
    lanes > 1 && !given
      ? async () => {
          const fresh = await start(spare++);
          owned.push(fresh);
          opened.push(await open(fresh, clients));
          return { cluster: fresh, opened: opened[opened.length - 1] };
        }
      : undefined;
  return {
    lanes: [first, ...more],
    replace,
    findings: () => [...new Set(opened.flatMap((o) => o.findings()))],
    [Symbol.asyncDispose]: dispose,
  };
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
