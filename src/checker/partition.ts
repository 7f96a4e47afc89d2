import type { OpRecord } from '../history/types.ts';

/**
 * Keys are independent, so each is checked on its own. Fail ops are dropped: they certainly did
 * not take effect. Keys keep the order of their first operation, ops their order in the history.
 */
export function partitionByKey<I, O>(ops: readonly OpRecord<I, O>[]): Map<string, OpRecord<I, O>[]> {
  const byKey = new Map<string, OpRecord<I, O>[]>();
  for (const op of ops) {
    let list = byKey.get(op.key);
    if (list === undefined) {
      list = [];
      byKey.set(op.key, list);
    }
    if (op.outcome !== 'fail') list.push(op);
  }
  return byKey;
}
