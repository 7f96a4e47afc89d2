import type { History, OpRecord } from '../history/types.ts';
import type { CheckSpec } from './spec.ts';
import type { Violation } from './types.ts';

/** What a key left without a TTL breaks when the spec does not say (a bare model): every state of every model expires. */
const ANY_MODEL = { invariant: 'model-conformance', consequence: 'holds its state forever' } as const;

/**
 * Post-run probes: a key the implementation left with no TTL (PTTL -1) is a state no model can be
 * in — a counter that never resets, a lease that never runs out — whatever the answers said.
 */
export function probeViolations<S, I, O>(history: History<I, O>, spec: CheckSpec<S, I, O>): Violation<I, O>[] {
  const { model } = spec;
  const violations: Violation<I, O>[] = [];
  for (const probe of history.probes ?? []) {
    if (probe.pttlMs !== -1) continue;
    const ops = history.ops.filter((op) => op.key === probe.key && op.outcome === 'ok');
    const witness: OpRecord<I, O>[] = ops.slice(-3);
    const { invariant, consequence } = spec.noTtl ?? ANY_MODEL;
    violations.push({
      invariant,
      message:
        `key "${probe.key}" was left with no TTL (PTTL -1) at ${probe.at.toFixed(1)} ms, after ${ops.length} acknowledged operation(s): ` +
        `every ${model.name} key must expire, or it ${consequence}.`,
      key: probe.key,
      witness,
      subHistory: witness,
      modelState: 'a key with an expiry',
      expected: 'a TTL on the key',
    });
  }
  return violations;
}
