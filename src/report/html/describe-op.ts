/** An op in the words the page shows: never throws, whatever a stored history holds. */
import type { OpRecord } from '../../history/types.ts';
import type { Model } from '../../model/types.ts';
import { duration } from './escape.ts';

type AnyModel = Model<unknown, unknown, unknown>;

function safely(describe: () => string, raw: unknown): string {
  try {
    return describe();
  } catch {
    return raw === undefined ? 'undefined' : JSON.stringify(raw);
  }
}

export const inputText = (model: AnyModel, op: OpRecord) => safely(() => model.describeInput(op.input), op.input);

/** "fresh", "1", "failed: READONLY ...", "unknown (timeout)" */
export function resultText(model: AnyModel, op: OpRecord): string {
  if (op.outcome === 'ok') return safely(() => model.describeOutput(op.output), op.output);
  if (op.outcome === 'fail') return `failed${op.error ? `: ${op.error}` : ''}`;
  return `unknown${op.error ? ` (${op.error})` : ''}`;
}

export function opName(op: OpRecord): string {
  const name = (op.input as { op?: unknown } | null)?.op;
  return typeof name === 'string' ? name : 'op';
}

export function timeText(op: OpRecord): string {
  if (op.outcome === 'info') return `invoked at ${duration(op.invokedAt)}, gave up at ${duration(op.completedAt)}`;
  return `${duration(op.invokedAt)} – ${duration(op.completedAt)}`;
}

/** "op 3 · client 1 · complete(...) → 1 · 1.7 ms – 2.4 ms" */
export function opLine(model: AnyModel, op: OpRecord): string {
  return `op ${op.id} · client ${op.client} · ${inputText(model, op)} → ${resultText(model, op)} · ${timeText(op)}`;
}
