/**
 * Reference model of the GCRA limiter (lua/gcra/gcra.lua; go-redis/redis_rate): `burst` places, each
 * allowed hit taking one until the limiter's theoretical arrival time has moved past it. Outputs are
 * exactly the script's replies: hit 1 allowed | 0 blocked (a blocked hit changes nothing).
 *
 * Time enters only through leases, as everywhere (DESIGN.md, "The model and time"). GCRA moves its
 * TAT one emission interval T = periodMs / rate on per allowed hit, from now or from where the TAT
 * already was: so the hits pending at any instant form one chain, each ending T after the one before,
 * and a hit is allowed exactly when fewer than `burst` are pending. An allowed hit is therefore a
 * place freed when its chain link ends, between T and burst·T after it (burst·T when `burst - 1`
 * were queued before it): the lease of each place is known within those bounds (expiryRangeMs), and
 * the checker may place its end anywhere in them. The real end is one of those instants, so no true
 * GCRA history is refused; a limiter that lets a hit through with `burst` places taken, or frees a
 * place sooner than one interval after its hit, is.
 */
import { type Model, integerReplyMatches, requireInteger } from '../../pattern.ts';

export interface GcraInput {
  readonly op: 'hit';
  readonly burst: number;
  readonly rate: number;
  readonly periodMs: number;
}

export type GcraOutput = 1 | 0;

/** The places taken, by the tag (op id) of the hit that took each; `kind` names the state in coverage tables. */
export interface GcraState {
  readonly kind: 'idle' | 'busy';
  readonly places: readonly number[];
}

const IDLE: GcraState = { kind: 'idle', places: [] };

/** The emission interval, ms. */
export const intervalMs = (input: GcraInput) => input.periodMs / input.rate;

export const gcra: Model<GcraState, GcraInput, GcraOutput> = {
  name: 'gcra',
  init: () => IDLE,
  step(state, input, id) {
    // The script refuses these with an error, which no model output describes.
    const burst = requireInteger(input.burst, 'hit.burst', 1);
    requireInteger(input.rate, 'hit.rate', 1);
    requireInteger(input.periodMs, 'hit.periodMs', 1);
    if (state.places.length >= burst) return { state, output: 0 };
    return { state: { kind: 'busy', places: [...state.places, id] }, output: 1 };
  },
  expire(state, tag) {
    // One place per expiry: a hit resent after a cut link ran twice under one tag and took two
    // places, whose chain links end one after the other (each has its own expiry entry).
    const at = state.places.indexOf(tag);
    if (at < 0) return state;
    const places = [...state.places.slice(0, at), ...state.places.slice(at + 1)];
    return places.length === 0 ? IDLE : { kind: 'busy', places };
  },
  leaseTags: (state) => state.places,
  leaseTag: (state) => (state.places.length === 0 ? null : state.places[0]),
  expiryMs: (input) => intervalMs(input),
  expiryRangeMs: (input) => [intervalMs(input), input.burst * intervalMs(input)],
  outputMatches: (expected, observed) => integerReplyMatches(expected, observed),
  // Places are interchangeable: the state is how many are taken and by which leases.
  hashState: (state) => (state.places.length === 0 ? 'i' : state.places.join(',')),
  describeInput: (input) => `hit(burst=${input.burst}, rate=${input.rate}/${input.periodMs}ms)`,
  describeOutput: (output) => (output === 1 ? '1' : '0'),
  describeState: (state) =>
    state.places.length === 0 ? 'idle' : `${state.places.length} place(s) taken (by ops ${state.places.join(', ')})`,
};
