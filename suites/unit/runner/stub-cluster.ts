import type { Cluster } from '../../../src/cluster/types.ts';
import type { Model } from '../../../src/model/types.ts';
import type { Subject } from '../../../src/subject/types.ts';

/**
 * A cluster with no servers, for what the runner does around a schedule (discarding runs, probing
 * TTLs) when nothing but the cluster's answers matter. Only what a fault-free run calls is there.
 */
export class StubCluster {
  readonly kind = 'local' as const;
  readonly destructive = true;
  readonly nodes = [];
  topologyCalls = 0;
  heals = 0;
  constructor(
    private readonly behaviour: {
      /** Throw from the nth topology() call (each run reads the topology once, first). */
      readonly topologyFails?: (call: number) => boolean;
      /** Every PTTL probe rejects with this. */
      readonly probeError?: string;
      /** Throw from the nth heal() call (a cluster that cannot be healed). */
      readonly healFails?: (call: number) => boolean;
    } = {},
  ) {}
  seeds() {
    return [];
  }
  natMap() {
    return {};
  }
  connect() {
    const probeError = this.behaviour.probeError;
    return {
      pttl: async () => {
        if (probeError) throw new Error(probeError);
        return -2;
      },
      disconnect: () => undefined,
    };
  }
  async topology() {
    const call = ++this.topologyCalls;
    if (this.behaviour.topologyFails?.(call)) throw new Error('CLUSTERDOWN Hash slot not served');
    return { nodes: [], toString: () => 'stub: no nodes' };
  }
  async redisVersion() {
    return 'stub';
  }
  async heal() {
    const call = ++this.heals;
    if (this.behaviour.healFails?.(call)) throw new Error('the stub cluster cannot be healed');
  }
  async dispose() {}
  toString() {
    return 'stub cluster';
  }
  asCluster(): Cluster {
    return this as unknown as Cluster;
  }
}

/**
 * An in-process implementation of a pattern: one state per key, changed atomically (JavaScript
 * runs each call to completion), expiring when its lease runs out on the wall clock. Correct by
 * construction for schedules without faults, which is all these tests need of it.
 */
export function inMemorySubjects(
  model: Model<unknown, unknown, unknown>,
  count: number,
  redisKey?: (key: string) => string,
): Subject[] {
  const keys = new Map<string, { state: unknown; expiresAt: number }>();
  const subject: Subject = {
    name: `in-memory ${model.name}`,
    async invoke(key, input) {
      const now = performance.now();
      let entry = keys.get(key) ?? { state: model.init(), expiresAt: Infinity };
      const tag = model.leaseTag(entry.state);
      if (tag !== null && now >= entry.expiresAt)
        entry = { state: model.expire(entry.state, tag), expiresAt: Infinity };
      const id = Math.floor(Math.random() * 2 ** 31);
      const step = model.step(entry.state, input, id);
      const ms = model.expiryMs(input);
      const expiresAt =
        model.leaseTag(step.state) === id && ms !== undefined
          ? now + ms
          : model.leaseTag(step.state) === null
            ? Infinity
            : entry.expiresAt;
      keys.set(key, { state: step.state, expiresAt });
      return step.output;
    },
    ...(redisKey ? { redisKey } : {}),
    async close() {},
  };
  return Array.from({ length: count }, () => subject);
}
