/**
 * Kleppmann's scenario (./kleppmann.ts) with the Redlock libraries teams run, each called through
 * the door chaoslua certifies it by and as its README shows it on independent masters:
 *  - npm `redlock` (examples/third-party/redlock/store.mjs): `new Redlock([five ioredis clients])`,
 *    through the module: contract's `options.masters`; the clients are the scenario's (no offline
 *    queue, so a command meant for a master out of reach fails instead of landing after the cut);
 *  - Go `redsync` (examples/third-party/redsync/adapter): `redsync.New(five pools...)`, through cmd:,
 *    the hello's `masters`; go-redis dials its own connections and queues nothing.
 * The adapters' folders must be installed (scripts/bootstrap-examples.sh): `libraryMissing` says which is not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { projectRoot } from '../../src/cluster/binaries.ts';
import type { Cluster } from '../../src/cluster/types.ts';
import { HandleTable } from '../../src/impl/declared-answers.ts';
import { loadModule, moduleSubject } from '../../src/impl/module-subject.ts';
import { processSubjects } from '../../src/impl/process-subjects.ts';
import { lock } from '../../src/patterns/lock/index.ts';
import { ProcessSession } from '../../src/process-protocol/session.ts';
import type { KleppmannClients, KleppmannOptions } from './kleppmann.ts';

export const REDLOCK_STORE = path.join(projectRoot, 'examples/third-party/redlock/store.mjs');
export const REDSYNC_ADAPTER = path.join(projectRoot, 'examples/third-party/redsync/adapter');

/** Why a library's adapter cannot run here (not installed), or undefined. */
export function libraryMissing(library: 'redlock' | 'redsync'): string | undefined {
  if (library === 'redlock')
    return fs.existsSync(path.join(projectRoot, 'examples/third-party/redlock/node_modules/redlock'))
      ? undefined
      : 'examples/third-party/redlock has no node_modules (npm ci there)';
  return fs.existsSync(REDSYNC_ADAPTER)
    ? undefined
    : 'examples/third-party/redsync has no adapter binary (go build there)';
}

/** npm redlock over each client's five connections, through the module: contract. */
export const redlockClients: KleppmannOptions['open'] = async (connections, namespace) => {
  const loaded = await loadModule(REDLOCK_STORE);
  const handles = new HandleTable();
  const open = (masters: readonly Redis[]) => moduleSubject(loaded, REDLOCK_STORE, lock, masters, namespace, handles);
  return { subjects: [await open(connections[0]), await open(connections[1])], close: async () => undefined };
};

/** Go redsync in one process serving both clients, each request over five pools, through cmd:. */
export function redsyncClients(cluster: Cluster): KleppmannOptions['open'] {
  return async (_connections, namespace): Promise<KleppmannClients> => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-kleppmann-'));
    const session = await ProcessSession.open({
      command: REDSYNC_ADAPTER,
      pattern: lock,
      seeds: cluster.seeds(),
      natMap: cluster.natMap(),
      masters: cluster.seeds(),
      clients: 2,
      stderrFile: path.join(dir, 'stderr.log'),
      handshakeTimeoutMs: 10_000,
      requestTimeoutMs: 6_000,
      shutdownTimeoutMs: 2_000,
    });
    const close = async () => {
      await session.close();
      fs.rmSync(dir, { recursive: true, force: true });
    };
    const problems = session.findings();
    if (problems.length) {
      await close();
      throw new Error(`redsync adapter: ${problems.join('; ')}`);
    }
    const [one, two] = processSubjects(session, lock, 2, 'redsync', namespace);
    return { subjects: [one, two], close };
  };
}
