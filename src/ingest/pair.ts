/**
 * Event logs (Jepsen, Porcupine) record an invocation and a completion per operation as two lines;
 * chaoslua's history holds one record per operation. Pairing goes by process: a process has at
 * most one operation open, and its next completion closes it. An operation still open at the end
 * of the log never answered: it is indeterminate (`info`), as an `:info` completion is.
 */
import type { OpRecord, Outcome } from '../history/types.ts';
import { FormatError } from './errors.ts';

export interface Invocation {
  readonly kind: 'invoke';
  readonly line: number;
  readonly process: number;
  /** The operation's name, to check the completion names the same one. */
  readonly f: string;
  readonly key: string;
  readonly input: unknown;
  readonly at: number;
}

export interface Completion {
  readonly kind: Outcome;
  readonly line: number;
  readonly process: number;
  readonly f: string;
  readonly output?: unknown;
  readonly error?: string;
  readonly at: number;
}

export type LogEvent = Invocation | Completion;

export function pairEvents(file: string, events: readonly LogEvent[]): OpRecord[] {
  const open = new Map<number, { invocation: Invocation; id: number }>();
  const ops: (OpRecord | undefined)[] = [];
  let end = 0;
  for (const event of events) {
    end = Math.max(end, event.at);
    const pending = open.get(event.process);
    if (event.kind === 'invoke') {
      if (pending) {
        throw new FormatError(
          file,
          event.line,
          `process ${event.process} invokes again while its operation from line ${pending.invocation.line} is still open (expected a completion first)`,
        );
      }
      open.set(event.process, { invocation: event, id: ops.length });
      ops.push(undefined);
      continue;
    }
    if (!pending)
      throw new FormatError(
        file,
        event.line,
        `:${event.kind} for process ${event.process}, which has no open :invoke (expected an :invoke first)`,
      );
    if (pending.invocation.f !== event.f) {
      throw new FormatError(
        file,
        event.line,
        `:${event.kind} :${event.f} for process ${event.process}, whose open operation (line ${pending.invocation.line}) is :${pending.invocation.f}`,
      );
    }
    // Timed logs (Jepsen's :time) decide the interval by the clock: a completion recorded before its
    // invocation is a broken log, and judging it would place the operation before it began.
    if (event.at < pending.invocation.at) {
      throw new FormatError(
        file,
        event.line,
        `:${event.kind} for process ${event.process} at ${ms(event.at)} comes before its :invoke on line ${pending.invocation.line} at ${ms(pending.invocation.at)} (expected a completion's :time after its invocation's)`,
      );
    }
    open.delete(event.process);
    ops[pending.id] = record(pending.invocation, pending.id, event);
  }
  for (const { invocation, id } of open.values()) {
    ops[id] = record(invocation, id, {
      kind: 'info',
      line: invocation.line,
      process: invocation.process,
      f: invocation.f,
      error: 'never completed in the log',
      at: end,
    });
  }
  return ops as OpRecord[];
}

const ms = (at: number) => `${Number(at.toFixed(6))} ms`;

function record(invocation: Invocation, id: number, completion: Completion): OpRecord {
  const { process: client, key, input, at: invokedAt } = invocation;
  const { kind: outcome, at: completedAt } = completion;
  if (outcome === 'ok')
    return { type: 'op', id, client, key, input, invokedAt, completedAt, outcome, output: completion.output };
  const error = completion.error ?? (outcome === 'fail' ? 'failed' : 'indeterminate');
  return { type: 'op', id, client, key, input, invokedAt, completedAt, outcome, error };
}
