import type { Cluster as IORedisCluster } from 'ioredis';
import { describeDurability, type Durability } from '../plan/durability.ts';
import type { ReferenceSubject } from './adapter.ts';
import { waitForReplicas } from './wait-replicas.ts';

/**
 * The reference client with `--durability wait:N:T`: after every operation, WAIT on the connection
 * that ran it (see waitForReplicas), and WAIT's answer in the receipt. Sent after every operation,
 * not only those that wrote, because the client cannot tell from a script's reply whether it wrote;
 * after one that wrote nothing, WAIT answers for this connection's earlier writes, and the checker
 * guards only the operations that changed the key.
 */
export function durableReference<I, O>(
  subject: ReferenceSubject<I, O>,
  redis: IORedisCluster,
  durability: Durability,
): ReferenceSubject<I, O> {
  return {
    name: `${subject.name} with WAIT (${describeDurability(durability)})`,
    redisKey: (key) => subject.redisKey(key),
    metricsText: (withMemory) => subject.metricsText(withMemory),
    close: () => subject.close(),
    async invoke(key, input, receipt) {
      const output = await subject.invoke(key, input, receipt);
      const acknowledged = await waitForReplicas(redis, subject.redisKey(key), durability);
      if (receipt) receipt.acknowledgedReplicas = acknowledged;
      return output;
    },
  };
}
