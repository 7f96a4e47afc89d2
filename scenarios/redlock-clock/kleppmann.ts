/**
 * Redlock as Kleppmann described it ("How to do distributed locking", 2016), on five independent
 * masters and the reference Redlock client (src/patterns/lock/redlock.ts):
 *   1. masters 3 and 4 cannot be reached; client 1 acquires on masters 0, 1, 2: a majority, held;
 *   2. master 2's wall clock jumps forward past the lease (the clock-jump fault), so its copy expires;
 *   3. masters 0 and 1 cannot be reached; client 2 acquires on masters 2, 3, 4: a majority, held.
 * Two clients hold the lock at once. Both acquires are recorded as the runner records them, the jump
 * as the nemesis records it, and the history is judged by the lock's model: legal only if client 1's
 * lease ended early by the jump, so a clock loss, the environment breaking Redlock's stated
 * assumption (clocks that run at about the same rate), never a bug of the implementation. Without
 * the jump the same schedule is legal: client 2 counts two masters and gives back what it took.
 *
 * Not in the scenario catalogue (scenarios/catalogue.ts): a catalogued scenario runs a broken and a
 * remediated variant on a Redis Cluster, and here the variant is the same client, and what changes
 * is the clock (its remedy, fencing tokens, is outside the lock: docs/redlock.md).
 */
import type { Redis } from 'ioredis';
import { check, type CheckResult } from '../../src/checker/index.ts';
import type { Cluster } from '../../src/cluster/types.ts';
import { clockJump } from '../../src/faults/clocks.ts';
import { startClock } from '../../src/history/clock.ts';
import { Recorder } from '../../src/history/recorder.ts';
import type { History } from '../../src/history/types.ts';
import { lock } from '../../src/patterns/lock/index.ts';
import type { LockInput } from '../../src/patterns/lock/model.ts';
import { REDLOCK_DEFAULTS } from '../../src/patterns/lock/redlock.ts';
import { RedlockSubject } from '../../src/patterns/lock/redlock-subject.ts';
import { runClient } from '../../src/runner/client.ts';
import type { Subject } from '../../src/subject/types.ts';
import { projectScriptsDir } from '../../src/scripts/paths.ts';

export const TTL_MS = 10_000;
/** A Redlock client's small per-master timeout, against a 10 s lease. */
const MASTER_TIMEOUT_MS = 200;

/** Clients 1 and 2 of the scenario, and how to let them go. */
export interface KleppmannClients {
  readonly subjects: readonly [Subject, Subject];
  close(): Promise<void>;
}

export interface KleppmannOptions {
  /** Move master 2's clock (the scenario) or not (the same schedule with true clocks). */
  readonly jump: boolean;
  /** In every key, so that runs on one set of masters never meet. */
  readonly namespace: string;
  readonly say?: (line: string) => void;
  /**
   * Clients 1 and 2 when not the reference Redlock: a library's (./libraries.ts), given the
   * scenario's connections to every master (client i's are `connections[i - 1]`; a library that
   * dials its own may ignore them: the cuts close every connection, since a disabled proxy does).
   */
  readonly open?: (connections: readonly (readonly Redis[])[], namespace: string) => Promise<KleppmannClients>;
}

export interface KleppmannRun {
  readonly history: History;
  readonly result: CheckResult<unknown, unknown>;
  /** Acquires answered "held" (1), by client. */
  readonly holders: readonly number[];
}

const SLOTS_PER_MASTER = Math.floor(16384 / 5);

/** Clients that fail fast on a master they cannot reach (no queue that would send the command once it can). */
async function clientsOf(cluster: Cluster): Promise<Redis[]> {
  const clients = cluster.masterClients!({ enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 2_000 });
  await Promise.all(clients.map((c) => ready(c)));
  return clients;
}

const ready = (c: Redis) =>
  c.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => c.once('ready', () => resolve()));
const until = async (what: () => boolean) => {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
};

/** Masters `cut` unreachable for every client (their client proxies disabled), until `restore`. */
async function cut(cluster: Cluster, masters: readonly number[], clients: readonly Redis[][]): Promise<void> {
  for (const m of masters) await cluster.setProxyEnabled(m, 'client', false);
  await until(() => clients.every((cs) => masters.every((m) => cs[m].status !== 'ready')));
}

async function restore(cluster: Cluster, masters: readonly number[], clients: readonly Redis[][]): Promise<void> {
  for (const m of masters) await cluster.setProxyEnabled(m, 'client', true);
  await Promise.all(clients.flatMap((cs) => masters.map((m) => ready(cs[m]))));
}

export async function kleppmann(cluster: Cluster, options: KleppmannOptions): Promise<KleppmannRun> {
  if (cluster.topologyKind !== 'masters' || cluster.nodes.length !== 5)
    throw new RangeError('the scenario runs on five independent masters');
  const say = options.say ?? (() => undefined);
  const connections = [await clientsOf(cluster), await clientsOf(cluster)];
  let opened: KleppmannClients | undefined;
  try {
    opened = options.open
      ? await options.open(connections, options.namespace)
      : { subjects: await referenceClients(connections, options.namespace), close: async () => undefined };
    const { subjects } = opened;
    const recorder = new Recorder(startClock());
    const acquire = (client: number) =>
      runClient(
        client,
        [
          {
            type: 'op',
            key: 0,
            input: { op: 'acquire', token: `client-${client}`, ttlMs: TTL_MS } satisfies LockInput,
          },
        ],
        subjects[client - 1],
        () => 'resource',
        recorder,
        5_000,
      );

    await cut(cluster, [3, 4], connections);
    await acquire(1);
    say(`client 1 acquired with masters 3 and 4 out of reach: ${describeLast(recorder)}`);
    await restore(cluster, [3, 4], connections);

    const ctx = { cluster, recorder, slotOf: () => 2 * SLOTS_PER_MASTER, nodeTimeoutMs: 1_000 };
    const step = {
      kind: 'clock-jump' as const,
      atMs: 0,
      target: { key: 0, role: 'master' as const },
      offsetMs: TTL_MS + 1_000,
      ms: 1_500,
    };
    const startedAt = recorder.clock.now();
    // The jump holds for step.ms while client 2 acquires; the nemesis records it and heals after.
    const jumping = options.jump ? clockJump.apply!(step, ctx) : undefined;
    if (jumping) say(`master n2's clock jumps ${step.offsetMs} ms ahead: client 1's copy there expires`);
    await cut(cluster, [0, 1], connections);
    await acquire(2);
    say(`client 2 acquired with masters 0 and 1 out of reach: ${describeLast(recorder)}`);
    const applied = await jumping;
    if (applied) recorder.fault({ ...applied, startedAt, endedAt: recorder.clock.now() });
    await cluster.heal();

    const history = recorder.history();
    const result = check(history, lock);
    const holders = history.ops
      .filter((o) => o.input && (o.input as LockInput).op === 'acquire' && o.outcome === 'ok' && held(o.output))
      .map((o) => o.client);
    say(`verdict ${result.verdict}; holders: ${holders.map((c) => `client ${c}`).join(', ') || 'none'}`);
    return { history, result, holders };
  } finally {
    await opened?.close();
    for (const c of connections.flat()) c.disconnect();
  }
}

/** The reference Redlock (src/patterns/lock/redlock.ts) as clients 1 and 2, each over its own connections. */
async function referenceClients(
  connections: readonly (readonly Redis[])[],
  namespace: string,
): Promise<[Subject, Subject]> {
  const open = (i: number) =>
    RedlockSubject.open(connections[i], {
      scriptsDir: projectScriptsDir('lock'),
      name: `Redlock client ${i + 1}`,
      keyOf: (key) => lock.redisKey(namespace, key),
      quitOnClose: false,
      settings: { ...REDLOCK_DEFAULTS, masterTimeoutMs: () => MASTER_TIMEOUT_MS },
    });
  return [await open(0), await open(1)];
}

/** An acquire that answered "held": the model's 1, or a library's `true` at the boolean level. */
const held = (output: unknown): boolean =>
  output === 1 || (typeof output === 'object' && output !== null && (output as { answer?: unknown }).answer === true);

function describeLast(recorder: Recorder): string {
  const op = recorder.ops.filter((o) => o.insideOf === undefined).at(-1)!;
  return op.outcome === 'ok'
    ? `answered ${held(op.output) ? 'held' : String((op.output as { answer?: unknown })?.answer ?? op.output)}`
    : `${op.outcome}: ${op.error}`;
}
