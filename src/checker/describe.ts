/** Words for operations and violations: what a counterexample and a report show a person. */
import type { OpRecord } from '../history/types.ts';
import type { Model } from '../model/types.ts';
import type { Violation } from './types.ts';

export function ms(t: number): string {
  return Number.isInteger(t) ? String(t) : t.toFixed(1);
}

/** "120–131 ms", or for an indeterminate op "invoked at 120 ms, outcome unknown". */
export function span(op: OpRecord): string {
  if (op.outcome === 'info') return `invoked at ${ms(op.invokedAt)} ms, outcome unknown`;
  return `${ms(op.invokedAt)}–${ms(op.completedAt)} ms`;
}

/** `client 2's register(...) (op 5, 120–131 ms)` */
export function opPhrase<I>(model: Model<unknown, I, unknown>, op: OpRecord<I>): string {
  return `client ${op.client}'s ${safely(() => model.describeInput(op.input), op.input)} (op ${op.id}, ${span(op)})`;
}

/** An observed output in the model's words when it can be read as one, else as JSON. */
export function outputText(model: Model<unknown, unknown, unknown>, output: unknown): string {
  return safely(() => model.describeOutput(output), output);
}

function safely(describe: () => string, raw: unknown): string {
  try {
    return describe();
  } catch {
    return json(raw);
  }
}

function json(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/** One line per op without a model, so a stored counterexample can be printed on its own. */
export function describeOp(op: OpRecord): string {
  const result =
    op.outcome === 'ok'
      ? ` -> ${json(op.output)}`
      : op.outcome === 'info'
        ? ` -> ? (${op.error ?? 'indeterminate'})`
        : ' -> failed';
  const waited =
    op.acknowledgedReplicas === undefined
      ? ''
      : ` (WAIT: ${op.acknowledgedReplicas} replica${op.acknowledgedReplicas === 1 ? '' : 's'})`;
  return `op ${op.id} client ${op.client} key ${JSON.stringify(op.key)} [${span(op)}] ${json(op.input)}${result}${waited}`;
}

export function describeViolation(violation: Violation): string {
  const lines = [
    `${violation.invariant} violated on key ${JSON.stringify(violation.key)}: ${violation.message}`,
    `  model state there: ${violation.modelState}; the model prescribes ${violation.expected}`,
    '  witness:',
    ...violation.witness.map((op) => `    ${describeOp(op)}`),
    `  minimal violating sub-history (${violation.subHistory.length} ops):`,
    ...violation.subHistory.map((op) => `    ${describeOp(op)}`),
  ];
  return lines.join('\n');
}
