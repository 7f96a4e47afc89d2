import { ComposeCluster, type ComposeClusterConstraints } from './compose.ts';
import { ClusterUsageError } from './errors.ts';
import { ExternalCluster, parseSeeds, type ExternalClusterConstraints } from './external.ts';
import { LocalCluster } from './local.ts';
import { MastersCluster } from './masters.ts';
import type { TopologySpec } from '../plan/topology.ts';
import { SentinelCluster } from './sentinel.ts';
import { NetnsCluster } from './netns/cluster.ts';
import type { LocalClusterConstraints } from './options.ts';
import type { Cluster } from './types.ts';

/** What `--cluster` may say. */
export type ClusterSpec =
  | { readonly kind: 'local' }
  | { readonly kind: 'compose' }
  | { readonly kind: 'netns' }
  | { readonly kind: 'external'; readonly seeds: string };

const FORMS = `'local' (default), 'compose', 'netns', or redis://host:port[,host:port...]`;

/** Parse a `--cluster` value; undefined or '' means local. The seed list is validated here, before any connection. */
export function parseClusterSpec(value: string | undefined): ClusterSpec {
  const spec = (value ?? '').trim();
  if (spec === '' || spec === 'local') return { kind: 'local' };
  if (spec === 'compose') return { kind: 'compose' };
  if (spec === 'netns') return { kind: 'netns' };
  if (/^rediss?:\/\//i.test(spec)) {
    parseSeeds(spec, '--cluster');
    return { kind: 'external', seeds: spec };
  }
  throw new ClusterUsageError(`--cluster: unknown value '${spec}' (expected ${FORMS})`);
}

/** Per-backend options; only the chosen backend's are used. */
export interface StartClusterOptions {
  local?: LocalClusterConstraints;
  compose?: ComposeClusterConstraints;
  external?: Omit<ExternalClusterConstraints, 'seeds'>;
  /** `--topology`: absent or cluster, a Redis Cluster; masters, independent masters on this machine (local only); sentinel, a primary with replicas under Sentinel (local only). */
  topology?: TopologySpec;
}

/**
 * A started Cluster for a `--cluster` value. Errors: ClusterUsageError for a bad value (exit 2);
 * EnvironmentError when the backend cannot start (exit 3), for compose without Docker a
 * DockerUnavailableError whose message is the skip line.
 */
export async function startCluster(
  spec: 'local' | 'compose' | string = 'local',
  options: StartClusterOptions = {},
): Promise<Cluster> {
  const parsed = parseClusterSpec(spec);
  if (options.topology?.kind === 'masters') {
    if (parsed.kind !== 'local')
      throw new ClusterUsageError(`--topology masters runs on --cluster local only, not --cluster ${parsed.kind}`);
    const l = options.local ?? {};
    return MastersCluster.start({
      count: options.topology.count,
      nodeTimeoutMs: l.nodeTimeoutMs,
      readyTimeoutMs: l.readyTimeoutMs,
      seed: l.seed,
      redisServer: l.redisServer,
    });
  }
  if (options.topology?.kind === 'sentinel') {
    if (parsed.kind !== 'local')
      throw new ClusterUsageError(`--topology sentinel runs on --cluster local only, not --cluster ${parsed.kind}`);
    const l = options.local ?? {};
    return SentinelCluster.start({
      replicas: options.topology.replicas,
      nodeTimeoutMs: l.nodeTimeoutMs,
      readyTimeoutMs: l.readyTimeoutMs,
      seed: l.seed,
      redisServer: l.redisServer,
    });
  }
  switch (parsed.kind) {
    case 'local':
      return LocalCluster.start(options.local);
    case 'compose':
      return ComposeCluster.start(options.compose);
    case 'netns':
      return NetnsCluster.start(options.local);
    case 'external':
      return ExternalCluster.connect({ ...options.external, seeds: parsed.seeds });
  }
}
