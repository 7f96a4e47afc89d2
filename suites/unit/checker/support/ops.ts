import type { FaultRecord, History, OpRecord } from '../../../../src/history/types.ts';
import type { CheckResult, KeyVerdict } from '../../../../src/checker/index.ts';

let nextId = 1000;

/** An operation record on key "k" unless told otherwise; ids are unique across a test file. */
export function op<I, O = never>(
  client: number,
  input: I,
  invokedAt: number,
  completedAt: number,
  result: { output: O } | 'info' | 'fail',
  key = 'k',
): OpRecord<I, O> {
  const base = { type: 'op' as const, id: nextId++, client, key, input, invokedAt, completedAt };
  if (result === 'info') return { ...base, outcome: 'info', error: 'timeout' };
  if (result === 'fail') return { ...base, outcome: 'fail', error: 'refused' };
  return { ...base, outcome: 'ok', output: result.output };
}

export const ok = <O>(output: O): { output: O } => ({ output });

export function history<I, O>(ops: OpRecord<I, O>[], faults: FaultRecord[] = []): History<I, O> {
  return { ops, faults, topology: [] };
}

export function fault(kind: FaultRecord['kind'], startedAt: number, endedAt: number, lossy: boolean): FaultRecord {
  return {
    type: 'fault',
    id: nextId++,
    kind,
    target: 'node 1 (master of 0-5460)',
    startedAt,
    endedAt,
    lossy,
    detail: '',
  };
}

export function keyVerdict(result: CheckResult, key = 'k'): KeyVerdict {
  const found = result.keys.find((k) => k.key === key);
  if (!found) throw new Error(`no verdict for key ${key}`);
  return found;
}

/** A generated tiny operation of the oracle property tests. */
export interface TinyOp<I, O> {
  readonly input: I;
  readonly output: O;
  readonly invokedAt: number;
  readonly duration: number;
  readonly outcome: string;
}

/** Tiny generated operations as records on key "k", one client each, in the order given. */
export function tinyRecords<I, O>(tiny: readonly TinyOp<I, O>[]): OpRecord<I, O>[] {
  return tiny.map((t, id) => ({
    type: 'op',
    id,
    client: id,
    key: 'k',
    input: t.input,
    invokedAt: t.invokedAt,
    completedAt: t.invokedAt + t.duration,
    outcome: t.outcome as 'ok' | 'info' | 'fail',
    ...(t.outcome === 'ok' ? { output: t.output } : { error: 'x' }),
  }));
}
