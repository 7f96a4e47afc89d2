/**
 * The two shapes a critical instant's race takes (src/generator/races.ts), written once for every
 * pattern: a pattern says which of its operations play each part, these say when. Tokens name the
 * race's attempt (RaceContext.attempt), past every session's, so nothing else in the run is theirs.
 */
import fc from 'fast-check';
import type { ClientStep } from '../../plan/schedule.ts';
import { token, type Race, type RaceContext } from './common.ts';

/** The parts of a race at a lease's end, as inputs of the pattern's operations. */
export interface LeaseEndParts<I> {
  /** The leases the holder may take the key with (the pattern's time scale); default the generator's. */
  readonly leases?: readonly number[];
  /** The operation that takes the key with a lease of `leaseMs` (the holder's first, the contender's asks). */
  take(owner: string, leaseMs: number): I;
  /** The holder's operation that reads before it writes, sent just before its lease runs out. */
  victim(owner: string, leaseMs: number): I;
  /**
   * One ask of the contender, repeated from just after the victim is sent until well past the
   * lease; default: take. An ask whose answer differs once the contender's place is taken from
   * under it (a semaphore's refresh beside its acquire) lets a lost place show.
   */
  ask?(owner: string, leaseMs: number): I[];
  /** What the contender does once it stops asking (give the key back, or finish its work). */
  finish(owner: string, leaseMs: number): I[];
}

/** How long after the holder's racing operation is due the contender first asks: after its first command is out. */
const CONTENDER_LAG_MS = 15;
/** How long the contender keeps asking after the holder's lease: past a hold that ends when it steps in, and what follows. */
const ASKING_PAST_LEASE_MS = 250;

const op = <I>(key: number, input: I): ClientStep<I> => ({ type: 'op', key, input });

/**
 * A lease running out under a read: the holder takes the key, works until just before its lease
 * runs out (a round trip or a few short of it, so its operation is sent while it still holds), and
 * sends its racing operation; the contender asks for the key every 10-25 ms from just after that
 * until well past the lease, then finishes. An operation that reads the holder, then writes, held
 * between the two past the lease, writes over (or deletes) what the contender took.
 */
export function leaseEndRace<I>(ctx: RaceContext, parts: LeaseEndParts<I>): fc.Arbitrary<Race<I>> {
  const holder = token(ctx.holder, ctx.attempt);
  const contender = token(ctx.contender, ctx.attempt);
  return fc
    .record({
      leaseMs: fc.constantFrom(...(parts.leases ?? ctx.options.leasesMs)),
      early: fc.integer({ min: 30, max: 120 }),
      every: fc.integer({ min: 10, max: 25 }),
    })
    .map(({ leaseMs, early, every }) => {
      const key = ctx.key;
      const sendAt = Math.max(0, leaseMs - early);
      const asks = Math.ceil((early + ASKING_PAST_LEASE_MS) / every);
      const ask = (parts.ask?.(contender, leaseMs) ?? [parts.take(contender, leaseMs)]).map((input) => op(key, input));
      return {
        holder: [
          op(key, parts.take(holder, leaseMs)),
          { type: 'pause' as const, ms: sendAt },
          op(key, parts.victim(holder, leaseMs)),
        ],
        contender: [
          { type: 'pause' as const, ms: sendAt + CONTENDER_LAG_MS },
          ...Array.from({ length: asks }, (_, i): ClientStep<I>[] =>
            i === 0 ? ask : [{ type: 'pause', ms: every }, ...ask],
          ).flat(),
          ...parts.finish(contender, leaseMs).map((input) => op(key, input)),
        ],
        aim: 1,
        leaseMs,
      };
    });
}

/** The parts of a race for a key's last place, as inputs of the pattern's operations. */
export interface LastPlaceParts<I> {
  /** The leases a place may be taken with (the pattern's time scale); default the generator's. */
  readonly leases?: readonly number[];
  /** What fills the places before the last (the contender sends them first, under `fillers`' tokens): none for a key of one place. */
  fill(fillers: readonly string[], leaseMs: number): I[];
  /** The operation that takes a place: the holder's racing one, and the contender's. */
  take(owner: string, leaseMs: number): I;
  /** What each does once it has raced (give the place back, finish its work). */
  finish(owner: string, leaseMs: number): I[];
  /**
   * How long each works between taking the place and finishing, ms (default 0-60). A handler's work
   * keeps the contender's place taken while the racer, refused, tries again.
   */
  workMs?: readonly [number, number];
}

/**
 * Two clients for a key's last place: the contender fills the places before it (if any), then both
 * take at nearly the same instant, the holder first. An operation that reads how many places are
 * taken, then takes one, held between the two until the contender has been answered, takes a place
 * the contender already took.
 */
export function lastPlaceRace<I>(ctx: RaceContext, parts: LastPlaceParts<I>): fc.Arbitrary<Race<I>> {
  const holder = token(ctx.holder, ctx.attempt);
  const contender = token(ctx.contender, ctx.attempt);
  const fillers = [1, 2, 3].map((n) => token(ctx.contender, ctx.attempt + n));
  return fc
    .record({
      leaseMs: fc.constantFrom(...(parts.leases ?? ctx.options.leasesMs)),
      // Both start at the run's start; the fills are done well before the holder takes.
      startMs: fc.integer({ min: 40, max: 80 }),
      after: fc.integer({ min: parts.workMs?.[0] ?? 0, max: parts.workMs?.[1] ?? 60 }),
    })
    .map(({ leaseMs, startMs, after }) => {
      const key = ctx.key;
      const fill = parts.fill(fillers, leaseMs).map((input) => op(key, input));
      const finish = (owner: string) => [
        { type: 'pause' as const, ms: after },
        ...parts.finish(owner, leaseMs).map((input) => op(key, input)),
      ];
      return {
        holder: [{ type: 'pause' as const, ms: startMs }, op(key, parts.take(holder, leaseMs)), ...finish(holder)],
        // The fills take a round trip each: the contender waits out what is left of the start.
        contender: [
          ...fill,
          { type: 'pause' as const, ms: Math.max(0, startMs + CONTENDER_LAG_MS - 2 * fill.length) },
          op(key, parts.take(contender, leaseMs)),
          ...finish(contender),
        ],
        aim: 0,
        leaseMs,
      };
    });
}
