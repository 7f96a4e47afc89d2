/**
 * How a pattern's operations draw their arguments: a few kinds that say what an argument is for,
 * so the harness knows which one names a holder (drawn so that holders collide and stale ones come
 * back) and which one is a lease (drawn from the job's time scale, `--set lease=...`).
 */
import fc from 'fast-check';
import { otherToken } from '../../generator/sessions/common.ts';
import { leasesOf } from '../time-scale.ts';
import type { ArgType } from '../types.ts';
import type { ArgSpec, DrawContext } from './spec.ts';

/** A holder's name: this session's own four times in five, else a stale or another client's one. */
function holder(): ArgSpec<string> {
  return {
    kind: 'holder',
    type: 'string',
    draw: (ctx) =>
      fc.oneof({ weight: 4, arbitrary: fc.constant(ctx.own) }, { weight: 1, arbitrary: otherToken(ctx.session) }),
  };
}

/** A lease, TTL or window in ms: one of the job's two (`--set lease=… --set lease2=…`, 250 and 500 by default). */
function lease(): ArgSpec<number> {
  return {
    kind: 'lease',
    type: 'integer>=1',
    max: 60_000,
    draw: (ctx) => fc.constantFrom(...leasesOf(ctx.session.options)),
  };
}

/** An integer in [min, max]. */
function integer(bounds: { readonly min: number; readonly max: number }): ArgSpec<number> {
  const { min, max } = bounds ?? {};
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max || min < 0) {
    throw new RangeError(`arg.integer needs whole numbers 0 <= min <= max, got ${JSON.stringify(bounds)}`);
  }
  return { kind: 'integer', type: min >= 1 ? 'integer>=1' : 'integer>=0', max, draw: () => fc.integer({ min, max }) };
}

/** One of a few values (strings, or whole numbers >= 0): few, so that clients collide on them. */
function oneOf<T extends string | number>(values: readonly T[]): ArgSpec<T> {
  if (!Array.isArray(values) || values.length === 0) throw new RangeError('arg.oneOf needs at least one value');
  const strings = values.every((v) => typeof v === 'string');
  const integers = values.every((v) => Number.isSafeInteger(v) && (v as number) >= 0);
  if (!strings && !integers)
    throw new RangeError(`arg.oneOf takes strings, or whole numbers >= 0, not ${JSON.stringify(values)}`);
  const type: ArgType = strings ? 'string' : values.every((v) => (v as number) >= 1) ? 'integer>=1' : 'integer>=0';
  return {
    kind: 'oneOf',
    type,
    max: integers ? Math.max(...(values as number[])) : undefined,
    draw: () => fc.constantFrom(...values),
  };
}

/** Any fast-check arbitrary, with the type histories check the values against. */
function custom<T>(type: ArgType, draw: (ctx: DrawContext) => fc.Arbitrary<T>, max?: number): ArgSpec<T> {
  if (typeof draw !== 'function')
    throw new TypeError('arg.custom needs a function from the draw context to a fast-check arbitrary');
  return { kind: 'custom', type, max, draw };
}

export const arg = { holder, lease, integer, oneOf, custom } as const;
