import { inspect } from 'node:util';
import { quiet } from '../../cluster/quiet.ts';
import { waitForClientReady } from '../../subject/ready-client.ts';
import type { Cluster as IORedisCluster, Redis } from 'ioredis';
import type { AnyPattern } from '../../patterns/types.ts';
import { ImplSpecError } from '../../impl/impl-spec.ts';
import { loadModule, moduleSubject, type SentinelAccess } from '../../impl/module-subject.ts';
import type { Subject } from '../../subject/types.ts';
import { HARNESS_REDIS_OPTIONS } from '../../impl/reference.ts';
import { HANDSHAKE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../chaos-options.ts';
import { OpenFailure } from '../open-failure.ts';
import type { ImplOpener } from '../types.ts';
import type { Cluster } from '../../cluster/types.ts';
import type { Durability } from '../../plan/durability.ts';
import { HandleTable } from '../../impl/declared-answers.ts';
import { MODULE_CLOCK_REACH } from '../../impl/client-clock.ts';

/** What a caller may set on a module: implementation; every field is optional. */
export interface ModuleOpenerConstraints {
  /** Longest wait for createStore, ms. Default: a cmd: program's handshake limit. */
  createTimeoutMs?: number;
  /** Longest one store call may go unanswered before it is a finding, ms. Default: a cmd: request's limit. */
  callTimeoutMs?: number;
  /** Longest wait for the store's close(), ms. Default 3 000. */
  closeTimeoutMs?: number;
  /** `--durability wait:N:T`, handed to createStore. */
  durability?: Durability;
}

/**
 * What createStore threw or rejected with, on one line: an Error's name and message, anything else
 * as util.inspect shows it (a library may reject with a plain object or a string).
 */
function describeThrown(error: unknown): string {
  if (error instanceof Error)
    return `${error.name && error.name !== 'Error' ? `${error.name}: ` : ''}${error.message.split('\n')[0] || '(no message)'}`;
  return inspect(error, { breakLength: Infinity, depth: 2 });
}

/** `promise`, or `onTimeout()` thrown after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A subject whose calls are watched: one unanswered past `ms` is a hang finding, as a cmd:
 * program's request would be. The runner's own bound has already recorded the operation as
 * indeterminate by then; this only makes the hang fail the job instead of passing as timeouts.
 */
function watched(subject: Subject, ms: number, findings: Set<string>): Subject {
  return {
    ...subject,
    invoke(key, input, receipt) {
      const call = subject.invoke(key, input, receipt);
      const timer = setTimeout(() => {
        findings.add(
          `hang: ${subject.name} ${(input as { op?: string }).op ?? 'call'} on ${key} did not answer within ${ms} ms`,
        );
      }, ms);
      timer.unref();
      call.then(
        () => clearTimeout(timer),
        () => clearTimeout(timer),
      );
      return call;
    },
    close: () => within(subject.close(), 3_000, () => new Error('close timed out')).catch(() => undefined),
  };
}

/**
 * One logical client's connections, ready as the contract promises: a Cluster client (slot table
 * full, every master answering), or on independent masters one standalone client per master, each
 * answering (docs/module-contract.md, "Independent masters").
 */
async function readyClients(
  cluster: Cluster,
  connections: (IORedisCluster | Redis)[],
): Promise<IORedisCluster | Redis[]> {
  // Under Sentinel: a standalone client that found the primary through the Sentinels, typed as the contract's.
  if (cluster.topologyKind === 'sentinel' && cluster.sentinelClient) {
    const redis = cluster.sentinelClient(HARNESS_REDIS_OPTIONS.redisOptions);
    connections.push(redis);
    await redis.ping();
    return redis as unknown as IORedisCluster;
  }
  if (cluster.topologyKind === 'masters' && cluster.masterClients) {
    const masters = cluster.masterClients(HARNESS_REDIS_OPTIONS.redisOptions);
    connections.push(...masters);
    await Promise.all(masters.map((m) => m.ping()));
    return masters;
  }
  const redis = quiet(cluster.connect(HARNESS_REDIS_OPTIONS));
  connections.push(redis);
  await waitForClientReady(redis);
  return redis;
}

/** module:PATH — one store per logical client, each on its own cluster connection. */
export function moduleOpener(pattern: AnyPattern, file: string, constraints: ModuleOpenerConstraints = {}): ImplOpener {
  const createMs = constraints.createTimeoutMs ?? HANDSHAKE_TIMEOUT_MS;
  const callMs = constraints.callTimeoutMs ?? REQUEST_TIMEOUT_MS;
  return async (cluster, clients) => {
    const loaded = await loadModule(file);
    const connections: (IORedisCluster | Redis)[] = [];
    const subjects: Subject[] = [];
    // One table of holder handles for all the logical clients (src/impl/declared-answers.ts).
    const handles = new HandleTable();
    const findings = new Set<string>();
    const closeAll = async () => {
      for (const s of subjects) await s.close().catch(() => undefined);
      for (const r of connections) r.disconnect();
    };
    try {
      for (let c = 0; c < clients; c++) {
        const redis = await readyClients(cluster, connections);
        const subject = await within(
          moduleSubject(
            loaded,
            file,
            pattern,
            redis,
            'chaoslua',
            handles,
            constraints.durability,
            sentinelAccess(cluster),
          ),
          createMs,
          () =>
            new OpenFailure('module-create-store', `module:${file}: createStore did not resolve within ${createMs} ms`),
        ).catch((error: unknown) => {
          if (error instanceof ImplSpecError || error instanceof OpenFailure) throw error;
          throw new OpenFailure('module-create-store', `module:${file}: createStore failed: ${describeThrown(error)}`);
        });
        subjects.push(watched(subject, callMs, findings));
      }
    } catch (error) {
      await closeAll();
      throw error;
    }
    const declared = subjects[0];
    return {
      impl: `module:${file}`,
      subjects,
      findings: () => [...findings],
      clientClockReach: MODULE_CLOCK_REACH,
      close: closeAll,
      capabilities: declared?.capabilities,
      keyMapping: declared?.keyMapping,
    };
  };
}

/** What a store is told of the Sentinels (options.sentinel), on a Sentinel deployment only. */
function sentinelAccess(cluster: Cluster): SentinelAccess | undefined {
  if (cluster.topologyKind !== 'sentinel' || !cluster.sentinels || !cluster.sentinelName) return undefined;
  return { sentinels: cluster.sentinels(), name: cluster.sentinelName, natMap: cluster.natMap() };
}
