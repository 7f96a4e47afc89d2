import type { Cluster } from 'ioredis';
import { referenceCommand } from '../../support/reference-commands.ts';

/** What createStore is told with `--durability wait:N:T` (docs/module-contract.md). */
interface Durability {
  readonly replicas: number;
  readonly timeoutMs: number;
  acknowledged(replicas: number): void;
}

/**
 * MUTANT (slip): asked for durability, it reports every write as acknowledged by the replicas asked
 * for without sending WAIT (the same as sending it and ignoring its answer). Its answers are the
 * reference scripts', so nothing is wrong until a partition: the isolated master acknowledges a
 * write no replica has, the majority promotes the replica, and the write the store called durable
 * is gone (lost-acknowledged-write).
 */
export function createStore(redis: Cluster, options: { durability?: Durability }) {
  const register = referenceCommand(redis, 'idempotency', 'register_or_get');
  const complete = referenceCommand(redis, 'idempotency', 'complete');
  const release = referenceCommand(redis, 'idempotency', 'release');
  const renew = referenceCommand(redis, 'idempotency', 'renew');
  const claimed = async (write: Promise<unknown>) => {
    const answer = await write;
    options.durability?.acknowledged(options.durability.replicas);
    return answer;
  };
  return {
    registerOrGet: (key: string, fingerprint: string, owner: string, leaseMs: number) =>
      claimed(register(key, fingerprint, owner, leaseMs)),
    complete: (key: string, owner: string, status: string, body: string, ttlMs: number) =>
      claimed(complete(key, owner, status, body, ttlMs)),
    release: (key: string, owner: string) => claimed(release(key, owner)),
    renew: (key: string, owner: string, leaseMs: number) => claimed(renew(key, owner, leaseMs)),
  };
}
