/**
 * The sessions of a pattern that does not write its own: each a handful of its operations on one
 * key (few keys, so clients collide), drawn by weight with their arguments, a short think time
 * before each, and after an operation that sets a lease, sometimes a stall past it (a frozen client,
 * or one that waited) when the job's faults include one.
 */
import fc from 'fast-check';
import { outliveLease, thinkTime, token, type SessionContext } from '../../generator/sessions/common.ts';
import type { ClientStep } from '../../plan/schedule.ts';
import type { SessionDraw } from './groups.ts';
import type { ArgSpec, DrawContext, OperationSpec } from './spec.ts';

type Input = { readonly op: string } & Readonly<Record<string, unknown>>;
type Step = ClientStep<Input>;

/** Most operations in one default session. */
const MAX_OPS = 6;

/** One input of `op`, its arguments drawn. */
export function inputArbitrary(
  op: string,
  args: Readonly<Record<string, ArgSpec>>,
  ctx: DrawContext,
): fc.Arbitrary<Input> {
  const drawn = Object.fromEntries(Object.entries(args).map(([name, a]) => [name, a.draw(ctx)]));
  return fc.record(drawn).map((values) => ({ op, ...values }));
}

/** fast-check's weights are whole numbers: a weight of 0.25 beside 1 becomes 1 beside 4. */
const WEIGHT_SCALE = 4;

export function defaultSession(
  operations: Readonly<Record<string, OperationSpec>>,
  leaseMsOf: (input: Input) => number | undefined,
): SessionDraw<Input> {
  return (ctx: SessionContext, attempt: number) => {
    const draw: DrawContext = { own: token(ctx.client, attempt), session: ctx };
    const one = fc.oneof(
      ...Object.entries(operations).map(([op, spec]) => ({
        weight: Math.max(1, Math.round((spec.weight ?? 1) * WEIGHT_SCALE)),
        arbitrary: inputArbitrary(op, spec.args, draw),
      })),
    );
    return fc
      .record({
        key: fc.integer({ min: 0, max: ctx.keys - 1 }),
        ops: fc.array(fc.tuple(thinkTime<Input>(), one), { minLength: 1, maxLength: MAX_OPS }),
      })
      .chain(({ key, ops }) =>
        fc
          .tuple(...ops.map(([, input]) => stallAfter(ctx, leaseMsOf(input))))
          .map((stalls) =>
            ops.flatMap(([pause, input], i): Step[] => [pause, { type: 'op', key, input }, ...(stalls[i] as Step[])]),
          ),
      );
  };
}

/** After a lease is set: nothing most of the time, else a stall past it (the faults permitting). */
function stallAfter(ctx: SessionContext, leaseMs: number | undefined): fc.Arbitrary<ClientStep[]> {
  if (leaseMs === undefined || !(leaseMs > 0)) return fc.constant<ClientStep[]>([]);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<ClientStep[]>([]) },
    { weight: 1, arbitrary: outliveLease(ctx, leaseMs) },
  );
}
