import fc from 'fast-check';
import type { FaultName } from '../../faults/index.ts';
import type { ClientStep } from '../../plan/schedule.ts';

/** What a session reads of the generator's options (ScheduleOptions has it all; named here so that
 *  the patterns' sessions depend on the plan, not on the generator's option parsing). */
export interface SessionOptions {
  readonly faults: ReadonlySet<FaultName>;
  readonly leasesMs: readonly number[];
  readonly maxSessionsPerClient: number;
  /** The pattern's settings, every one filled (src/generator/settings.ts); empty for a pattern without any. */
  readonly settings: Readonly<Record<string, number>>;
}

/** Context for drawing one client's sessions. */
export interface SessionContext {
  readonly client: number;
  readonly clients: number;
  readonly keys: number;
  readonly options: SessionOptions;
}

/** An owner/token naming the attempt that made it: c<client>a<attempt>, readable in a timeline. */
export const token = (client: number, attempt: number) => `c${client}a${attempt}`;

/** Short think/handler time between steps. */
export const thinkTime = <I>(): fc.Arbitrary<ClientStep<I>> =>
  fc.integer({ min: 0, max: 120 }).map((ms) => ({ type: 'pause' as const, ms }));

/**
 * Steps that make a lease run out: a client freeze past the lease (resumes with its old token) or a
 * plain wait past it (lease expiry). Empty when neither fault is enabled.
 */
export function outliveLease(ctx: SessionContext, leaseMs: number): fc.Arbitrary<ClientStep[]> {
  const choices: fc.Arbitrary<ClientStep[]>[] = [fc.constant([])];
  const past = fc.integer({ min: leaseMs + 50, max: leaseMs * 2 + 100 });
  if (ctx.options.faults.has('client-freeze')) choices.push(past.map((ms) => [{ type: 'freeze', ms }]));
  if (ctx.options.faults.has('lease-expiry')) choices.push(past.map((ms) => [{ type: 'pause', ms }]));
  return fc.oneof(...choices);
}

/** Another attempt's token: an older one of this client (stale) or one of another client (foreign). */
export function otherToken(ctx: SessionContext): fc.Arbitrary<string> {
  return fc
    .record({
      client: fc.integer({ min: 0, max: ctx.clients - 1 }),
      attempt: fc.integer({ min: 0, max: ctx.options.maxSessionsPerClient - 1 }),
    })
    .map(({ client, attempt }) => token(client, attempt));
}

/** Context for drawing a race (a pattern's `races`): the two clients it stages, and the attempt their tokens name. */
export interface RaceContext {
  readonly holder: number;
  readonly contender: number;
  /** The race's own logical key (one past the sessions' keys): nobody else is on it when the holder starts. */
  readonly key: number;
  readonly options: SessionOptions;
  /** Past every session's attempt number, so that no session's token and no stray one is a race's. */
  readonly attempt: number;
}

/**
 * A race a pattern stages at the start of a run, at one of its critical instants: the holder's steps
 * lead to the operation that reads before it writes (`aim`), the contender's land just after the
 * instant that read can go stale at. The steps go before each client's sessions.
 */
export interface Race<I = unknown> {
  readonly holder: ClientStep<I>[];
  readonly contender: ClientStep<I>[];
  /** The holder's operation that races (its number among the holder's operations, from 0): where a hold is aimed. */
  readonly aim: number;
  /** The lease the holder took its key with (a last-place race: the one it would take). */
  readonly leaseMs: number;
}

/** One critical instant of a pattern: the operation whose read can go stale there, and how to stage it. */
export interface RaceSource<I = any> {
  /** In words, for docs and reports: "release at its lease's end". */
  readonly name: string;
  readonly instant: 'lease-end' | 'last-place';
  /** The operation that reads before it writes (the one held across the instant). */
  readonly victim: string;
  /** The operations the race's steps use (only those): an implementation without one of them gets none. */
  readonly needs: readonly string[];
  /**
   * The racing operation's first command may be refused outright (BUSY, it never runs) instead of
   * held, one race in four: the contender then takes the place, and what the racer does about its
   * failed call (a retry that takes the contender's record for its own) is what races.
   */
  readonly refusable?: true;
  draw(ctx: RaceContext): fc.Arbitrary<Race<I>>;
}
