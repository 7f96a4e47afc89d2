/**
 * cluster-node-timeout: how long a node may be silent before its replica is promoted. One default
 * and one range for every place that takes it (the cluster backends, the job options, `cluster
 * up`), and the generator sizes short and long node freezes by it.
 */
export const NODE_TIMEOUT_MS = { default: 1_000, min: 100, max: 60_000 } as const;
