/**
 * The probes the holder lookahead is derived by (./holder-hints.ts): a few inputs of each operation
 * with probe holders, the states the model reaches from its initial one by them, and where in a state
 * a granting step keeps its holder.
 */
import fc from 'fast-check';
import type { SessionContext } from '../../generator/sessions/common.ts';
import { liveLeaseTags } from '../../model/leases.ts';
import type { Model } from '../../model/types.ts';
import { leaseSettings } from '../time-scale.ts';
import { inputArbitrary } from './session.ts';
import type { PatternSpec } from './spec.ts';

export type Input = { readonly op: string } & Readonly<Record<string, unknown>>;
export type Path = readonly string[];

/** Holder names the probes use: the first is the probed input's own. */
export const PROBES = ['chaoslua-probe-0', 'chaoslua-probe-1', 'chaoslua-probe-2'] as const;
export const OWN = PROBES[0];
/** The ids probe steps take (a step's id tags the lease it sets): two, so an old lease's end can be told from the live one's. */
export const IDS = [1_000_000, 1_000_001] as const;
export const ID = IDS[0];
const MAX_STATES = 400;

/** A few inputs of `op`, drawn as a session draws them (seeded: the same pattern gives the same ones). */
export function sampleInputs(spec: PatternSpec, op: string, own: string, numRuns = 8): Input[] {
  const settings = Object.fromEntries(
    Object.entries({ ...leaseSettings, ...(spec.settings ?? {}) }).map(([k, v]) => [k, v.default]),
  );
  const options = { faults: new Set<never>(), leasesMs: [250, 500], maxSessionsPerClient: 1, settings };
  const session = { client: 0, clients: 2, keys: 1, options } as unknown as SessionContext;
  return fc.sample(inputArbitrary(op, spec.operations[op].args, { own, session }), { seed: 1, numRuns });
}

/** Per operation, the argument naming its holder (undefined: none); undefined if one names two. */
export function holderArgs(spec: PatternSpec): Map<string, string | undefined> | undefined {
  const byOp = new Map<string, string | undefined>();
  for (const [op, o] of Object.entries(spec.operations)) {
    const names = Object.entries(o.args).flatMap(([name, a]) =>
      a.kind === 'holder' || name === spec.holder?.arg ? [name] : [],
    );
    if (names.length > 1) return undefined;
    byOp.set(op, names[0]);
  }
  return [...byOp.values()].some((a) => a !== undefined) ? byOp : undefined;
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && (Object.getPrototypeOf(v) === Object.prototype || Array.isArray(v));

export function valueAt(state: unknown, path: Path): unknown {
  let v = state;
  for (let i = 0; i < path.length; i++) {
    // Asked at every configuration the search enters (holderOf, holdsIdentity): no more than a walk.
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[path[i]];
  }
  return v;
}

/** The paths of `state` holding the string `name` (a few levels deep). */
function pathsTo(state: unknown, name: string, prefix: string[] = [], out: string[][] = []): string[][] {
  if (state === name) out.push(prefix);
  else if (isPlain(state) && prefix.length < 4)
    for (const [k, v] of Object.entries(state)) pathsTo(v, name, [...prefix, k], out);
  return out;
}

/** `state` with the string `from` made `to`, values and keys; undefined if it is not plain data. */
export function renamed(state: unknown, from: string, to: string): unknown {
  if (state === from) return to;
  if (typeof state !== 'object' || state === null) return state;
  if (!isPlain(state)) return undefined;
  if (Array.isArray(state)) {
    const items = state.map((v) => renamed(v, from, to));
    return items.some((v, i) => v === undefined && state[i] !== undefined) ? undefined : items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(state)) {
    const r = renamed(v, from, to);
    if (r === undefined && v !== undefined) return undefined;
    out[k === from ? to : k] = r;
  }
  return out;
}

export interface Shape {
  readonly op: string;
  readonly arg: string | undefined;
  readonly input: Input;
}

export const withHolder = (shape: Shape, name: string): Input =>
  shape.arg === undefined ? shape.input : { ...shape.input, [shape.arg]: name };

/**
 * Every state reachable from the initial one by probe steps (each with one of IDS as its id) and
 * expiries, or undefined when they do not close within MAX_STATES. Only a closed set says what an
 * answer shows: a leader lease's term grows with every win, so any bounded set of its states misses
 * the vacant state a fresh win answered 4 came from, and read "4" as the leader's own re-campaign
 * (false alarms on legal histories before closure was required).
 */
export function explore<S>(model: Model<S, Input, unknown>, shapes: readonly Shape[]): S[] | undefined {
  const seen = new Map<string, S>();
  const init = model.init();
  seen.set(model.hashState(init), init);
  let frontier = [init];
  while (frontier.length > 0) {
    const next: S[] = [];
    const add = (s: S) => {
      const h = model.hashState(s);
      if (seen.has(h)) return;
      seen.set(h, s);
      next.push(s);
    };
    for (const s of frontier) {
      for (const tag of liveLeaseTags(model, s)) add(model.expire(s, tag));
      for (const shape of shapes)
        for (const name of PROBES)
          for (const id of IDS) {
            try {
              add(model.step(s, withHolder(shape, name), id).state);
            } catch {
              // An input this state refuses (a model that throws) leads nowhere.
            }
          }
      if (seen.size > MAX_STATES) return undefined;
    }
    frontier = next;
  }
  return [...seen.values()];
}

/** Where granting steps put their holder: the candidate paths, the most often seen first. */
export function candidatePaths<S>(
  model: Model<S, Input, unknown>,
  states: readonly S[],
  shapes: readonly Shape[],
): Path[] {
  const count = new Map<string, number>();
  for (const s of states)
    for (const shape of shapes) {
      if (shape.arg === undefined) continue;
      try {
        const left = model.step(s, withHolder(shape, OWN), ID).state;
        for (const p of pathsTo(left, OWN)) {
          if (valueAt(s, p) === OWN) continue;
          const key = JSON.stringify(p);
          count.set(key, (count.get(key) ?? 0) + 1);
        }
      } catch {
        // as in explore
      }
    }
  return [...count.entries()].sort((a, b) => b[1] - a[1]).map(([key]) => JSON.parse(key) as Path);
}
