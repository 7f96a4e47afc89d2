/**
 * Critical instants derived from the declared leases, for a pattern that names none: for every
 * operation that can take a lease on a key nobody touched (the take: an acquire, a claim, a campaign;
 * not an extend or a renew, which only keep one) and every other operation that names a holder (the
 * victim, which reads the holder and then writes), a race at the lease's end: the holder takes,
 * sends the victim just before its lease runs out, and a contender takes again and again from just
 * after. A holder whose victim's read goes stale under it then acts on a key that is another's.
 */
import fc from 'fast-check';
import type { RaceContext, RaceSource, SessionContext } from '../../generator/sessions/common.ts';
import { leaseEndRace } from '../../generator/sessions/race-shapes.ts';
import { leasesOf } from '../time-scale.ts';
import { inputArbitrary } from './session.ts';
import type { OperationSpec } from './spec.ts';

type Input = { readonly op: string } & Readonly<Record<string, unknown>>;

const holderArgs = (spec: OperationSpec): string[] =>
  Object.entries(spec.args).flatMap(([name, a]) => (a.kind === 'holder' ? [name] : []));

/** The inputs of a race's parts: drawn once per race, then given the racers' holder names and the lease. */
function parts(
  ctx: RaceContext,
  op: string,
  spec: OperationSpec,
): fc.Arbitrary<(owner: string, leaseMs: number) => Input> {
  const session: SessionContext = {
    client: ctx.holder,
    clients: Math.max(ctx.holder, ctx.contender) + 1,
    keys: 1,
    options: ctx.options,
  };
  const owners = holderArgs(spec);
  const lease = typeof spec.lease === 'string' ? spec.lease : undefined;
  return inputArbitrary(op, spec.args, { own: '', session }).map((drawn) => (owner: string, leaseMs: number) => ({
    ...drawn,
    ...Object.fromEntries(owners.map((name) => [name, owner])),
    ...(lease ? { [lease]: leaseMs } : {}),
  }));
}

/** A lease drawn by arg.lease() races at the job's leases; another bounded one at the generator's. */
const leasesFor = (ctx: RaceContext, spec: OperationSpec): readonly number[] | undefined =>
  typeof spec.lease === 'string' && spec.args[spec.lease].kind === 'lease' ? leasesOf(ctx.options) : undefined;

/**
 * `takes(op)`: can the operation take a lease on a key nobody touched (the model, stepped from its
 * initial state on a few drawn inputs, then holds one)? Only a lease whose length is an argument can
 * be staged to a chosen length.
 */
export function derivedRaces(
  operations: Readonly<Record<string, OperationSpec>>,
  takes: (op: string) => boolean,
): RaceSource<Input>[] {
  const races: RaceSource<Input>[] = [];
  for (const [take, takeSpec] of Object.entries(operations)) {
    if (typeof takeSpec.lease !== 'string' || holderArgs(takeSpec).length === 0 || !takes(take)) continue;
    for (const [victim, victimSpec] of Object.entries(operations)) {
      if (victim === take || holderArgs(victimSpec).length === 0) continue;
      races.push({
        name: `${victim} at the end of ${take}'s lease`,
        instant: 'lease-end',
        victim,
        needs: [take, victim],
        draw: (ctx) =>
          fc
            .tuple(parts(ctx, take, takeSpec), parts(ctx, victim, victimSpec))
            .chain(([taking, acting]) =>
              leaseEndRace(ctx, { leases: leasesFor(ctx, takeSpec), take: taking, victim: acting, finish: () => [] }),
            ),
      });
    }
  }
  return races;
}
