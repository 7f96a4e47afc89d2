import type { ClientStep, FaultStep, PartitionStep } from '../plan/schedule.ts';

/** Roughly how long a client's steps take with no faults: pauses plus ~2 ms per operation. */
export function expectedSpanMs(steps: readonly ClientStep[]): number {
  return steps.reduce((ms, s) => ms + (s.type === 'op' ? 2 : s.ms), 0);
}

/**
 * A partition longer than the node timeout fails its shard over, and what the isolated master
 * acknowledged meanwhile is discarded when it rejoins; but a loss is seen only by an operation after
 * the failover, before the lost record's lease or TTL runs out, and sessions drawn for the run's span
 * mostly end before the failover (a 200-run job of the reference saw one loss in 298 partitions). So
 * each long partition gets two late looks at its key by a client that used it: that client's first
 * operation on the key (a register, acquire or hit: the one that reads the state best) again, once
 * half a node timeout before the partition ends (the majority has promoted the replica by then, and
 * the client is redirected to it) and once a quarter of a node timeout after. Any operation is one the
 * model judges, so this adds no false alarm; it only makes a loss, and an implementation's claim that
 * a lost write was durable, visible.
 */
export function withLateLooks(
  clients: readonly ClientStep[][],
  faults: readonly FaultStep[],
  nodeTimeoutMs: number,
): ClientStep[][] {
  const out = clients.map((steps) => [...steps]);
  const long = faults.filter((f): f is PartitionStep => f.kind === 'partition' && f.ms > nodeTimeoutMs);
  for (const partition of long) {
    const users = out
      .map((steps, client) => ({ client, op: firstOpOn(steps, partition.key) }))
      .filter((u) => u.op !== undefined);
    if (users.length === 0) continue;
    // The partition's seed picks the client, so the choice replays with the schedule.
    const { client, op } = users[partition.seed % users.length];
    const end = partition.atMs + partition.ms;
    for (const at of [end - nodeTimeoutMs / 2, end + nodeTimeoutMs / 4]) {
      const wait = Math.round(at - expectedSpanMs(out[client]));
      if (wait > 0) out[client].push({ type: 'pause', ms: wait });
      out[client].push(op!);
    }
  }
  return out;
}

function firstOpOn(steps: readonly ClientStep[], key: number): ClientStep | undefined {
  return steps.find((step) => step.type === 'op' && step.key === key);
}
