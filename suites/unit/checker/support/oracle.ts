/**
 * A brute-force linearizability oracle for tiny histories: every order the semantics allow, no
 * shortcuts (its only memo is exact: the same placed entries, state and lineage give the same answer). It restates DESIGN.md's rules independently of src/checker/search.ts
 * (an op takes effect within its interval, an info op after its invocation or never, a lease runs
 * out inside its eps-widened window after the op that set it, a lossy fault rolls the key back to
 * a state on the current lineage; with faults that cut connections, a refusal overlapping one is
 * indeterminate and an op overlapping one may also run a second time, with any reply, within the
 * same window or not at all), so the checker's memoisation and pruning can be compared with it.
 */
import type { FaultRecord, OpRecord } from '../../../../src/history/types.ts';
import type { Model } from '../../../../src/model/types.ts';

type Entry<I, O> =
  | { readonly kind: 'op'; readonly op: OpRecord<I, O>; readonly call: number; readonly ret: number }
  | { readonly kind: 'second-run'; readonly op: OpRecord<I, O>; readonly call: number; readonly ret: number }
  | {
      readonly kind: 'expire';
      readonly parent: number;
      readonly tag: number;
      readonly call: number;
      readonly ret: number;
    }
  | { readonly kind: 'fault'; readonly call: number; readonly ret: number };

export function bruteForceLegal<S, I, O>(
  model: Model<S, I, O>,
  ops: readonly OpRecord<I, O>[],
  eps: number,
  lossyFaults: readonly FaultRecord[] = [],
  cuts: readonly FaultRecord[] = [],
): boolean {
  const entries: Entry<I, O>[] = [];
  const touchesCut = (from: number, to: number) => cuts.some((cut) => cut.startedAt <= to && cut.endedAt >= from);
  for (const recorded of ops) {
    const op: OpRecord<I, O> =
      recorded.outcome === 'fail' && touchesCut(recorded.invokedAt, recorded.completedAt)
        ? { ...recorded, outcome: 'info' }
        : recorded;
    if (op.outcome === 'fail') continue;
    const ret = op.outcome === 'ok' ? op.completedAt : Infinity;
    const runs: ('op' | 'second-run')[] = touchesCut(op.invokedAt, ret) ? ['op', 'second-run'] : ['op'];
    for (const kind of runs) {
      const parent = entries.push({ kind, op, call: op.invokedAt, ret }) - 1;
      const ms = model.expiryMs(op.input);
      if (ms !== undefined) {
        entries.push({ kind: 'expire', parent, tag: op.id, call: op.invokedAt + ms - eps, ret: ret + ms + eps });
      }
    }
  }
  for (const fault of lossyFaults) entries.push({ kind: 'fault', call: fault.startedAt, ret: fault.endedAt });
  const placed = entries.map(() => false);
  const expiryOf = new Map<number, number>();
  entries.forEach((entry, i) => {
    // A second run shares its op's id and so its lease tag: the op's own expiry is the one a rollback consults.
    if (entry.kind === 'expire' && !expiryOf.has(entry.tag)) expiryOf.set(entry.tag, i);
  });

  const known = new Map<string, boolean>();
  const search = (state: S, lineage: readonly S[]): boolean => {
    const configuration = `${placed.map((p) => (p ? 1 : 0)).join('')}|${lineage.map((s) => model.hashState(s)).join('|')}|${model.hashState(state)}`;
    let answer = known.get(configuration);
    if (answer === undefined) known.set(configuration, (answer = explore(state, lineage)));
    return answer;
  };
  const explore = (state: S, lineage: readonly S[]): boolean => {
    const open = entries.flatMap((entry, i) => (placed[i] ? [] : [{ entry, i }]));
    if (open.every(({ entry }) => entry.ret === Infinity || entry.kind === 'second-run')) return true;
    const deadline = Math.min(...open.map(({ entry }) => entry.ret));
    for (const { entry, i } of open) {
      if (entry.call > deadline) continue;
      if (entry.kind === 'expire' && !placed[entry.parent]) continue;
      for (const [next, nextLineage] of successors(entry, state, lineage)) {
        placed[i] = true;
        const found = search(next, nextLineage);
        placed[i] = false;
        if (found) return true;
      }
    }
    return false;
  };

  const extend = (lineage: readonly S[], next: S): S[] =>
    model.hashState(next) === model.hashState(lineage[lineage.length - 1]) ? [...lineage] : [...lineage, next];

  const successors = (entry: Entry<I, O>, state: S, lineage: readonly S[]): [S, readonly S[]][] => {
    if (entry.kind === 'op') {
      const step = model.step(state, entry.op.input, entry.op.id);
      if (entry.op.outcome === 'ok' && !model.outputMatches(step.output, entry.op.output)) return [];
      return [[step.state, extend(lineage, step.state)]];
    }
    if (entry.kind === 'second-run') {
      // It ran again (only the last reply is seen, so any output), or it did not.
      const step = model.step(state, entry.op.input, entry.op.id);
      return [
        [step.state, extend(lineage, step.state)],
        [state, lineage],
      ];
    }
    if (entry.kind === 'expire') {
      const next = model.expire(state, entry.tag);
      return [[next, extend(lineage, next)]];
    }
    const options: [S, readonly S[]][] = [[state, lineage]];
    lineage.forEach((earlier, j) => {
      const kept = lineage.slice(0, j + 1);
      options.push([earlier, kept]);
      const tag = model.leaseTag(earlier);
      const expiry = tag === null ? undefined : expiryOf.get(tag);
      if (tag !== null && expiry !== undefined && placed[expiry]) {
        const expired = model.expire(earlier, tag);
        options.push([expired, extend(kept, expired)]);
      }
    });
    return options;
  };

  const initial = model.init();
  return search(initial, [initial]);
}
