/**
 * The module door's client clocks: each logical client's store reads its own offset in `Date.now()`
 * and `new Date()`, as a library calls them (not a clock handed to it, which it could ignore).
 *
 * How: every call of a client's store (and its createStore, so timers it starts there too) runs in
 * an async context holding the client's cell; while any client's offset is not 0, the global Date is
 * one whose `now()` and no-argument construction add the current context's offset, and outside any
 * client's context (the harness, the runner, the recorder) they add nothing. The recorder's clock is
 * `performance.now()`, which never moves. Put back as it was once every offset is 0 again.
 * Not reached: a module that kept `Date.now` itself at import (`const now = Date.now`), or reads the
 * time another way (`performance.timeOrigin + performance.now()`, process.hrtime, Redis's TIME).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ProgramClock } from './program-clock.ts';

/** One logical client's clock: the offset its calls read, set between runs. */
export class ClientClockCell {
  offsetMs = 0;
}

const context = new AsyncLocalStorage<ClientClockCell>();
const TrueDate = globalThis.Date;
const trueNow = TrueDate.now;
/** Cells whose offset is not 0: the skewed Date is in place while there is one. */
let skewed = 0;

const now = (): number => trueNow.call(TrueDate) + (context.getStore()?.offsetMs ?? 0);

/**
 * Date as the skewed clients read it: the same prototype (so `instanceof Date` holds both ways, for
 * dates made before and after), the same static methods, and the time of the current context.
 */
// biome-ignore lint/suspicious/noShadowRestrictedNames: named Date so that `Date.name` and stack traces read as the global's
const SkewedDate = function Date(this: unknown, ...args: unknown[]): unknown {
  if (new.target === undefined) return new TrueDate(now()).toString();
  return Reflect.construct(TrueDate, args.length === 0 ? [now()] : args, new.target);
} as unknown as DateConstructor;
Object.defineProperty(SkewedDate, 'prototype', { value: TrueDate.prototype, writable: false });
Object.defineProperty(SkewedDate, 'length', { value: TrueDate.length });
Object.defineProperties(SkewedDate, {
  now: { value: now, writable: true, configurable: true },
  parse: { value: TrueDate.parse, writable: true, configurable: true },
  UTC: { value: TrueDate.UTC, writable: true, configurable: true },
});

function install(): void {
  globalThis.Date = SkewedDate;
  // Code that holds the Date it saw at import still calls Date.now() through it.
  TrueDate.now = now;
}

function restore(): void {
  globalThis.Date = TrueDate;
  TrueDate.now = trueNow;
}

/** Move a client's clock: from now on its calls read `offsetMs` more (0: the true clock). */
export function setClientOffset(cell: ClientClockCell, offsetMs: number): void {
  if (!Number.isFinite(offsetMs)) throw new RangeError(`client clock offset must be finite, got ${offsetMs}`);
  if (offsetMs !== 0 && cell.offsetMs === 0 && skewed++ === 0) install();
  if (offsetMs === 0 && cell.offsetMs !== 0 && --skewed === 0) restore();
  cell.offsetMs = offsetMs;
}

/** Run `f` (a call of the client's store) under the client's clock. */
export function underClientClock<T>(cell: ClientClockCell, f: () => T): T {
  return context.run(cell, f);
}

/** What the module door's offsets reach, for the certificate. */
export const MODULE_CLOCK_REACH =
  "module: each client's store reads its own offset in Date.now() and new Date() (calls and what createStore started; not a Date.now kept at import, performance.now or Redis TIME)";

/** The lua door's reference clients send no time (their scripts read none from the client): nothing to move. */
export const LUA_CLOCK_REACH =
  "lua: not reached: the lua door's client sends no time (its scripts take none from the client), so client skew cannot reach it";

/**
 * Without client-clock in the fault set the cmd door runs one program for every logical client
 * (chaoslua-process/1), so no client runs under a clock of its own.
 */
export const CMD_CLOCK_REACH =
  'cmd: not reached: one program serves every logical client, so no client runs under a clock of its own';

/** What the preload moves (native/clockshift.c), named in every cmd: line that relies on it. */
const PRELOAD = 'the clock preload (CLOCK_REALTIME, gettimeofday, time)';

/**
 * The cmd door with client-clock in the set: a process per logical client under its own clock where
 * the program reads the C library's clock, or one process and why not (a Go or static program).
 */
export function cmdClockReach(program: ProgramClock): string {
  switch (program.reads) {
    case 'c-library':
      return `cmd: a process per client under ${PRELOAD}: ${program.what}`;
    case 'unknown':
      return `cmd: a process per client under ${PRELOAD}; whether it reaches the program's clock cannot be told: ${program.what}`;
    case 'not-reached':
      return `cmd: not reached: ${program.what}; one process serves every client`;
  }
}

/** The cmd door where the preload cannot be built (no C compiler): one process, the true clock. */
export function cmdClockUnbuilt(why: string): string {
  return `cmd: not reached: ${PRELOAD} cannot be built here (${why}); one process serves every client`;
}
