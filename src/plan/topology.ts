/**
 * What `--topology` may say: the shape of the Redis a job runs on. `cluster` is a Redis Cluster (3
 * masters and their replicas, today's default); `masters` is N standalone masters that know nothing of
 * each other, the deployment Redlock and redsync are written for (5 by default, as Redlock's
 * description takes). Plan vocabulary: the edge parses it once, the environment starts it.
 */
export type TopologySpec = { readonly kind: 'cluster' } | { readonly kind: 'masters'; readonly count: number };

/** How many independent masters `masters` means when no count is given, and the limits of a count. */
export const MASTERS = { default: 5, min: 1, max: 16 } as const;

export const CLUSTER_TOPOLOGY: TopologySpec = { kind: 'cluster' };

/** A value of `--topology` refused: `problem` names what is wrong, without the flag. */
export class TopologySpecError extends RangeError {
  override readonly name = 'TopologySpecError';
}

/** `cluster` (or nothing) | `masters` | `masters:N`; anything else is a TopologySpecError. */
export function parseTopologySpec(text: string | undefined): TopologySpec {
  const value = (text ?? '').trim();
  if (value === '' || value === 'cluster') return CLUSTER_TOPOLOGY;
  const match = /^masters(?::(\d{1,6}))?$/.exec(value);
  if (!match)
    throw new TopologySpecError(
      `unknown value '${value.length > 40 ? `${value.slice(0, 40)}...` : value}' (expected cluster, masters or masters:N)`,
    );
  const count = match[1] === undefined ? MASTERS.default : Number(match[1]);
  if (count < MASTERS.min || count > MASTERS.max)
    throw new TopologySpecError(`masters:${count}: the count must be an integer in [${MASTERS.min}, ${MASTERS.max}]`);
  return { kind: 'masters', count };
}

export function describeTopology(spec: TopologySpec): string {
  return spec.kind === 'cluster' ? 'cluster' : `masters:${spec.count}`;
}
