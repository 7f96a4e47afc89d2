import type { ClientStep } from '../plan/schedule.ts';
import type { Receipt, Subject } from '../subject/types.ts';
import { classifyError } from './classify.ts';
import { sleep } from '../history/clock.ts';
import type { Recorder } from '../history/recorder.ts';
import type { OperationBoard } from './operation-board.ts';

/** The harness's own bound on one operation: an implementation that hangs past it is a finding. */
export class OperationTimeout extends Error {
  override readonly name = 'OperationTimeout';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OperationTimeout(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One logical client: its steps one after another, each operation recorded with the instants
 * the client invoked it and stopped waiting. Never judges an answer. `declared` turns a step's
 * input into the one the history records (the semantic variants the subject declared).
 */
export async function runClient(
  client: number,
  steps: readonly ClientStep[],
  subject: Subject,
  keyName: (key: number) => string,
  recorder: Recorder,
  opTimeoutMs: number,
  declared: (input: unknown) => unknown = (input) => input,
  board?: OperationBoard,
): Promise<void> {
  const clock = recorder.clock;
  let opNumber = 0;
  // A fault waiting for an operation this client never reaches is told so once it has no step left.
  try {
    for (const step of steps) {
      if (step.type === 'pause') {
        await sleep(step.ms);
        continue;
      }
      if (step.type === 'freeze') {
        const startedAt = clock.now();
        await sleep(step.ms);
        recorder.fault({
          kind: 'client-freeze',
          target: `client c${client}`,
          startedAt,
          endedAt: clock.now(),
          lossy: false,
          detail: `c${client} stalled ${step.ms} ms`,
        });
        continue;
      }
      const id = recorder.id();
      const key = keyName(step.key);
      const input = declared(step.input);
      const invokedAt = clock.now();
      const ended = board?.invoking(client, opNumber++, step.key, invokedAt);
      const receipt: Receipt = {};
      try {
        const output = await withTimeout(subject.invoke(key, input, receipt), opTimeoutMs);
        const acknowledged = receipt.acknowledgedReplicas;
        const completedAt = clock.now();
        recorder.op({
          type: 'op',
          id,
          client,
          key,
          input,
          invokedAt,
          completedAt,
          outcome: 'ok',
          output,
          ...(acknowledged === undefined ? {} : { acknowledgedReplicas: acknowledged }),
        });
        recordAlso(recorder, receipt, id, client, key, invokedAt, completedAt);
      } catch (error) {
        const outcome = error instanceof OperationTimeout ? 'info' : classifyError(error);
        const message = error instanceof Error ? error.message : String(error);
        const completedAt = clock.now();
        recorder.op({ type: 'op', id, client, key, input, invokedAt, completedAt, outcome, error: message });
        recordAlso(recorder, receipt, id, client, key, invokedAt, completedAt);
      } finally {
        ended?.();
      }
    }
  } finally {
    board?.finishedClient(client);
  }
}

/**
 * What the call also did (an acquire given back: its release), recorded as operations of their own
 * from the call's invocation: answered ones within its window, indeterminate ones from then on.
 */
function recordAlso(
  recorder: Recorder,
  receipt: Receipt,
  call: number,
  client: number,
  key: string,
  invokedAt: number,
  completedAt: number,
): void {
  for (const also of receipt.alsoDid ?? []) {
    const answered = 'output' in also;
    recorder.op({
      type: 'op',
      id: recorder.id(),
      client,
      key,
      input: also.input,
      invokedAt,
      completedAt,
      insideOf: call,
      ...(answered ? { outcome: 'ok' as const, output: also.output } : { outcome: 'info' as const, error: also.error }),
    });
  }
}
