import fs from 'node:fs';
import path from 'node:path';

/**
 * redis-server arguments that keep a node's data in memory only, so that a killed node restarts
 * empty: the hazard the kill-restart fault exercises, and what the checker's "lossy" marks assume.
 *
 * `--save ''` and `--appendonly no` are not enough. A replica's full sync writes the snapshot it
 * receives to its dbfilename before loading it, and a node loads that file whenever it starts. With
 * every node of a cluster in one directory that was one shared dump.rdb, so a restarted master came
 * back with the keys of whichever replica had synced last: stale data of its own shard, or keys of
 * another shard's slots, which Redis's startup check then marks "importing" for good (gossip never
 * rebinds an importing slot); once that shard failed over, the node saw the slot unassigned and no
 * heal could bring the cluster back ("n2 sees 16383 slots assigned"). So: the replica loads the
 * snapshot straight from the socket (swapdb: never through a file), each node has a file of its own
 * name, and that file is removed before every start.
 */
export function noPersistenceArgs(snapshotFile: string): string[] {
  return [
    '--save',
    '',
    '--appendonly',
    'no',
    '--repl-diskless-load',
    'swapdb',
    '--dbfilename',
    path.basename(snapshotFile),
  ];
}

/** Before a (re)start: no snapshot for the node to load, whoever wrote it. */
export function removeSnapshot(snapshotFile: string): void {
  fs.rmSync(snapshotFile, { force: true });
}
