/**
 * What `--topology` may say: the shape of the Redis a job runs on. `cluster` is a Redis Cluster (3
 * masters and their replicas, today's default); `masters` is N standalone masters that know nothing of
 * each other, the deployment Redlock and redsync are written for (5 by default, as Redlock's
 * description takes); `sentinel` is one primary with R replicas under three Sentinels, which fail the
 * primary over, and clients find the primary through them (2 replicas by default). Plan vocabulary:
 * the edge parses it once, the environment starts it.
 */
export type TopologySpec =
  | { readonly kind: 'cluster' }
  | { readonly kind: 'masters'; readonly count: number }
  | { readonly kind: 'sentinel'; readonly replicas: number };

/** How many independent masters `masters` means when no count is given, and the limits of a count. */
export const MASTERS = { default: 5, min: 1, max: 16 } as const;

/** How many replicas `sentinel` means when no count is given, and the limits of a count. */
export const SENTINEL_REPLICAS = { default: 2, min: 1, max: 4 } as const;

/** How many Sentinels watch the primary: three, the smallest number where a majority survives one lost. */
export const SENTINELS = 3;

export const CLUSTER_TOPOLOGY: TopologySpec = { kind: 'cluster' };

/** A value of `--topology` refused: `problem` names what is wrong, without the flag. */
export class TopologySpecError extends RangeError {
  override readonly name = 'TopologySpecError';
}

/** `cluster` (or nothing) | `masters` | `masters:N` | `sentinel` | `sentinel:R`; anything else is a TopologySpecError. */
export function parseTopologySpec(text: string | undefined): TopologySpec {
  const value = (text ?? '').trim();
  if (value === '' || value === 'cluster') return CLUSTER_TOPOLOGY;
  const sentinel = /^sentinel(?::(\d{1,6}))?$/.exec(value);
  if (sentinel) {
    const replicas = sentinel[1] === undefined ? SENTINEL_REPLICAS.default : Number(sentinel[1]);
    if (replicas < SENTINEL_REPLICAS.min || replicas > SENTINEL_REPLICAS.max)
      throw new TopologySpecError(
        `sentinel:${replicas}: the replica count must be an integer in [${SENTINEL_REPLICAS.min}, ${SENTINEL_REPLICAS.max}]`,
      );
    return { kind: 'sentinel', replicas };
  }
  const match = /^masters(?::(\d{1,6}))?$/.exec(value);
  if (!match)
    throw new TopologySpecError(
      `unknown value '${value.length > 40 ? `${value.slice(0, 40)}...` : value}' (expected cluster, masters, masters:N, sentinel or sentinel:R)`,
    );
  const count = match[1] === undefined ? MASTERS.default : Number(match[1]);
  if (count < MASTERS.min || count > MASTERS.max)
    throw new TopologySpecError(`masters:${count}: the count must be an integer in [${MASTERS.min}, ${MASTERS.max}]`);
  return { kind: 'masters', count };
}

export function describeTopology(spec: TopologySpec): string {
  if (spec.kind === 'sentinel') return `sentinel:${spec.replicas}`;
  return spec.kind === 'cluster' ? 'cluster' : `masters:${spec.count}`;
}
