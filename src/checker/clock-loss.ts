/**
 * Clock loss: a key illegal as recorded that is legal once its leases may have ended early or late by
 * as much as the server clocks the harness moved (src/faults/clocks.ts). Redis stores a TTL as an
 * instant of the clock of the node that set it and expires it by the clock of the node that holds it
 * then (after a failover, another node's), so a lease lasts its length less the change of offset
 * between the two readings. That is the environment's doing, reported apart as replication loss is,
 * never blamed on the implementation (DESIGN.md, "Time, servers and a team's own patterns").
 */
import { overlaps } from '../history/overlap.ts';
import type { ClockOffset, FaultRecord, OpRecord } from '../history/types.ts';
import { ms } from './describe.ts';

/** The clock faults whose offsets a key's leases may have lived under. */
export function clockFaultsOf(ops: readonly OpRecord[], clockFaults: readonly FaultRecord[]): FaultRecord[] {
  if (clockFaults.length === 0 || ops.length === 0) return [];
  let first = Infinity;
  let last = -Infinity;
  for (const op of ops) {
    first = Math.min(first, op.invokedAt);
    // An info op may take effect, and set a lease, at any later instant.
    last = Math.max(last, op.outcome === 'ok' ? op.completedAt : Infinity);
  }
  return clockFaults.filter((f) => overlaps(f, first, last));
}

/**
 * How far a lease's end may have moved in real time, ms: the widest spread between any two offsets
 * the faults set (a clock true counts as 0, as it was before each fault and is after its heal). A
 * lease set under one offset and expired under another ends that much early or late.
 */
export function clockSlackMs(faults: readonly FaultRecord[]): number {
  const offsets = faults.flatMap((f) => (f.clockOffsets ?? []).map((o) => o.offsetMs));
  if (offsets.length === 0) return 0;
  return Math.max(0, ...offsets) - Math.min(0, ...offsets);
}

/**
 * Per operation, how far the end of the lease it sets may have moved: `slackMs` where a moved clock
 * could be felt at some instant of the lease's life (from the operation's invocation to the latest
 * its lease can end, moved late by the slack too), 0 elsewhere. A clock moved and set true again
 * entirely before a lease was set, or after it ended, never read that lease: the node's clock was
 * true at its every instant (the preload reads its offset on every call, so a heal is immediate).
 * Widening only those leases keeps the re-check's search small (every lease widened made a
 * semaphore's search run out of budget beside a lossy failover, the soak of 2026-12-07).
 */
export function leaseSlacks(
  ops: readonly OpRecord[],
  faults: readonly FaultRecord[],
  slackMs: number,
  longestLeaseMs: (op: OpRecord) => number,
  eps: number,
): Float64Array {
  const slacks = new Float64Array(ops.length);
  ops.forEach((op, i) => {
    const lastEnd =
      op.outcome === 'ok' ? Math.max(op.invokedAt, op.completedAt) + longestLeaseMs(op) + eps + slackMs : Infinity;
    slacks[i] = faults.some((f) => overlaps(f, op.invokedAt, lastEnd)) ? slackMs : 0;
  });
  return slacks;
}

/**
 * The operations the clock-loss re-check judges: all but the answers a moved clock could give on its
 * own (CheckSpec.clockRefusal) while it could be felt, from the fault's start until its offsets and
 * the leases set under them have run out after the heal (`slackMs` past it, and the op's longest lease).
 */
export function clockJudged<I, O>(
  ops: readonly OpRecord<I, O>[],
  faults: readonly FaultRecord[],
  slackMs: number,
  refusal: ((input: I, output: unknown) => boolean) | undefined,
  longestLeaseMs: (input: I) => number,
): OpRecord<I, O>[] {
  if (!refusal) return [...ops];
  const felt = (op: OpRecord<I, O>) =>
    faults.some((f) => op.completedAt >= f.startedAt && op.invokedAt <= f.endedAt + slackMs + longestLeaseMs(op.input));
  return ops.filter((op) => !(op.outcome === 'ok' && refusal(op.input, op.output) && felt(op)));
}

/** "n2's clock stepped +1000 ms at 12.3 s (fault 4, healed at 14.5 s)", one clause per fault. */
export function describeClockFaults(faults: readonly FaultRecord[]): string {
  return faults
    .map((f) => {
      const offsets = f.clockOffsets ?? [];
      const by =
        offsets.length > 2
          ? `${offsets.length} times, between ${range(offsets)}`
          : offsets.map((o) => `${signed(o.offsetMs)} at ${ms(o.at)} ms`).join(', then ');
      return `${offsets[0]?.node ?? f.target}'s clock ${verb(f)} ${by} (fault ${f.id}, ${f.kind}; set true at ${ms(f.endedAt)} ms)`;
    })
    .join('; ');
}

const signed = (n: number) => `${n >= 0 ? '+' : ''}${n} ms`;
const range = (offsets: readonly ClockOffset[]) =>
  `${signed(Math.min(...offsets.map((o) => o.offsetMs)))} and ${signed(Math.max(...offsets.map((o) => o.offsetMs)))}`;
const verb = (f: FaultRecord) =>
  f.kind === 'clock-drift' ? 'drifted' : f.kind === 'clock-strobe' ? 'strobed' : 'stepped';

/** The sentence a clock loss reports: what moved, and what that allows of a lease. */
export function clockLossSentence(faults: readonly FaultRecord[], slackMs: number): string {
  return `${describeClockFaults(faults)}; a lease on that node could end up to ${slackMs} ms early or late in real time, which explains the history.`;
}
