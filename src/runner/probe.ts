import type { Cluster as IORedisCluster } from 'ioredis';
import { quiet } from '../cluster/quiet.ts';
import type { Cluster } from '../cluster/types.ts';
import type { Subject } from '../subject/types.ts';
import type { Recorder } from '../history/recorder.ts';
import { probeMasterTtls } from './probe-masters.ts';

/** Reads of one key's TTL before it counts as unreadable: a reply lost to a cut connection is retried. */
const PROBE_ATTEMPTS = 3;

export interface ProbeOutcome {
  /** Keys whose TTL could not be read, each with the error (findings: a probe missing is never a pass). */
  readonly unread: string[];
  /** Keys read under another name than the one handed over, or skipped, each with why (notes). */
  readonly notes: string[];
}

/**
 * The TTL each key was left with, read straight after the clients finished (before the final heal,
 * while leases are still running), under the Redis key the subject says it used. A library that
 * prefixes its keys (`mutex:<key>`) leaves that key absent: then the key is looked for under any name
 * ending with it (the run's namespace makes such names unique to the run; a suffix, not any substring,
 * so that a key of its own such as `<key>:fence` is never taken for it) and read there when there is
 * exactly one; more than one, and the probe is skipped with the names, never silently. The look-up
 * touches every master: when it fails, the absent key is recorded as before, with a note.
 */
export async function probeTtls(
  cluster: Cluster,
  subject: Subject,
  keys: readonly string[],
  recorder: Recorder,
): Promise<ProbeOutcome> {
  const outcome: ProbeOutcome = { unread: [], notes: [] };
  if (!subject.redisKey) return outcome;
  if (cluster.topologyKind === 'masters' && cluster.masterClients)
    return probeMasterTtls(
      cluster.masterClients({ commandTimeout: 2_000, maxRetriesPerRequest: 1 }),
      subject,
      keys,
      recorder,
    );
  // Under Sentinel, read where the clients write: the primary the Sentinels name (no Cluster to route by).
  const redis =
    cluster.topologyKind === 'sentinel' && cluster.sentinelClient
      ? (cluster.sentinelClient({ commandTimeout: 2_000 }) as unknown as IORedisCluster)
      : quiet(cluster.connect({ redisOptions: { commandTimeout: 2_000 } }));
  try {
    for (const key of keys) {
      // A declared key mapping is the implementation's word on where its state lives: read exactly
      // those keys, and guess from no other name.
      if (subject.storedKeys) {
        await probeDeclared(redis, key, subject.storedKeys(key), recorder, outcome);
        continue;
      }
      const handed = subject.redisKey(key);
      let lastError = '';
      for (let attempt = 1; attempt <= PROBE_ATTEMPTS; attempt++) {
        try {
          let pttlMs = Number(await redis.pttl(handed));
          if (pttlMs === -2) {
            let others: string[] = [];
            try {
              others = (await namesEndingWith(redis, handed)).filter((name) => name !== handed);
            } catch (error) {
              outcome.notes.push(
                `${key}: the key handed over (${handed}) is absent, and other names could not be searched (${(error as Error).message.split('\n')[0]})`,
              );
            }
            if (others.length > 1) {
              outcome.notes.push(
                `${key}: probe skipped: the key handed over (${handed}) is absent and ${others.length} keys end with it (${others.slice(0, 3).join(', ')}): which one holds the state is unknown`,
              );
              lastError = '';
              break;
            }
            if (others.length === 1) {
              pttlMs = Number(await redis.pttl(others[0]));
              outcome.notes.push(
                `${key}: probe read ${others[0]}, not the key handed over (${handed}): the implementation stores it under another name`,
              );
            }
          }
          recorder.probes.push({ type: 'probe', key, at: recorder.clock.now(), pttlMs });
          lastError = '';
          break;
        } catch (error) {
          lastError = (error instanceof Error ? error.message : String(error)).split('\n')[0];
        }
      }
      if (lastError) outcome.unread.push(`${key}: ${lastError}`);
    }
  } finally {
    redis.disconnect();
  }
  return outcome;
}

/**
 * The probe of a logical key kept under the declared keys: one with no TTL is what the probe is
 * for (-1 is recorded), else the longest TTL left (-2 when none of them exists).
 */
async function probeDeclared(
  redis: IORedisCluster,
  key: string,
  stored: readonly string[],
  recorder: Recorder,
  outcome: ProbeOutcome,
): Promise<void> {
  let lastError = '';
  for (let attempt = 1; attempt <= PROBE_ATTEMPTS; attempt++) {
    try {
      const ttls = await Promise.all(stored.map(async (name) => Number(await redis.pttl(name))));
      const pttlMs = ttls.includes(-1) ? -1 : Math.max(...ttls);
      recorder.probes.push({ type: 'probe', key, at: recorder.clock.now(), pttlMs });
      return;
    } catch (error) {
      lastError = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    }
  }
  outcome.unread.push(`${key}: ${lastError}`);
}

/** Every key on any master whose name ends with `text` (SCAN with a glob, special characters escaped). */
async function namesEndingWith(redis: IORedisCluster, text: string): Promise<string[]> {
  const pattern = `*${text.replace(/[*?[\]\\]/g, '\\$&')}`;
  const masters: Pick<IORedisCluster, 'scan'>[] =
    redis.isCluster === false ? [redis] : typeof redis.nodes === 'function' ? redis.nodes('master') : [];
  const found = new Set<string>();
  for (const master of masters) {
    let cursor = '0';
    do {
      const [next, names] = await master.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      for (const n of names) found.add(n);
      cursor = next;
    } while (cursor !== '0');
  }
  return [...found];
}
