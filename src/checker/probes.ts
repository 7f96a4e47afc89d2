import type { History, OpRecord } from '../history/types.ts';
import type { Model } from '../model/types.ts';
import { patternOfModel } from '../patterns/index.ts';
import type { Violation } from './types.ts';

/** What a key left without a TTL breaks, per pattern (model-conformance for any other model): every state of every model expires. */
const noTtl = (modelName: string) => patternOfModel(modelName)?.noTtl ?? { invariant: 'model-conformance', consequence: 'holds its state forever' };

/**
 * Post-run probes: a key the implementation left with no TTL (PTTL -1) is a state no model can be
 * in — a counter that never resets, a lease that never runs out — whatever the answers said.
 */
export function probeViolations<S, I, O>(history: History<I, O>, model: Model<S, I, O>): Violation<I, O>[] {
  const violations: Violation<I, O>[] = [];
  for (const probe of history.probes ?? []) {
    if (probe.pttlMs !== -1) continue;
    const ops = history.ops.filter((op) => op.key === probe.key && op.outcome === 'ok');
    const witness: OpRecord<I, O>[] = ops.slice(-3);
    const { invariant, consequence } = noTtl(model.name);
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
