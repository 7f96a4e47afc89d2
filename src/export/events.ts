/**
 * A history as an event log: an invocation and a completion per operation, in time order, each
 * under a process number that has at most one operation open (Jepsen's rule, which Porcupine's and
 * chaoslua's log readers pair by). A client keeps its number while it can; after an indeterminate
 * operation, or where its own operations overlap in the log, it gets a fresh one, as Jepsen does.
 */
import type { OpRecord } from '../history/types.ts';

export interface LogEvent {
  readonly op: OpRecord;
  readonly kind: 'invoke' | 'complete';
  readonly process: number;
  /** Milliseconds on the history's clock. */
  readonly at: number;
}

export function eventLog(ops: readonly OpRecord[]): LogEvent[] {
  const raw: { op: OpRecord; kind: 'invoke' | 'complete'; at: number }[] = [];
  for (const op of ops) {
    raw.push({ op, kind: 'invoke', at: op.invokedAt });
    raw.push({ op, kind: 'complete', at: Math.max(op.invokedAt, op.completedAt) });
  }
  // Intervals are closed: at equal instants invocations come first, so touching operations overlap.
  raw.sort((a, b) => a.at - b.at || (a.kind === 'invoke' ? 0 : 1) - (b.kind === 'invoke' ? 0 : 1) || a.op.id - b.op.id);

  let fresh = 0;
  for (const op of ops) if (op.client >= fresh) fresh = Math.floor(op.client) + 1;
  const current = new Map<number, number>();
  const busy = new Set<number>();
  const retired = new Set<number>();
  const processOf = new Map<number, number>();
  const events: LogEvent[] = [];
  for (const { op, kind, at } of raw) {
    if (kind === 'invoke') {
      let process = current.get(op.client) ?? (Number.isSafeInteger(op.client) && op.client >= 0 ? op.client : fresh++);
      if (busy.has(process) || retired.has(process)) process = fresh++;
      current.set(op.client, process);
      busy.add(process);
      processOf.set(op.id, process);
      events.push({ op, kind, process, at });
    } else {
      const process = processOf.get(op.id) as number;
      busy.delete(process);
      if (op.outcome === 'info') retired.add(process);
      events.push({ op, kind, process, at });
    }
  }
  return events;
}
