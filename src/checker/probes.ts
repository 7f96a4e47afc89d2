import type { History, OpRecord } from '../history/types.ts';
import type { Model } from '../model/types.ts';
import type { Violation } from './types.ts';

/** The invariant a key left without a TTL breaks, per model: every state of every model expires. */
const NO_TTL_INVARIANT: Readonly<Record<string, string>> = { ratelimit: 'counter-has-ttl' };

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
    violations.push({
      invariant: NO_TTL_INVARIANT[model.name] ?? 'model-conformance',
      message:
        `key "${probe.key}" was left with no TTL (PTTL -1) at ${probe.at.toFixed(1)} ms, after ${ops.length} acknowledged operation(s): ` +
        `every ${model.name} key must expire, or it ${model.name === 'ratelimit' ? 'blocks its window forever' : 'holds its state forever'}.`,
      key: probe.key,
      witness,
      subHistory: witness,
      modelState: 'a key with an expiry',
      expected: 'a TTL on the key',
    });
  }
  return violations;
}
