import fc from 'fast-check';
import type { ToxicSpec } from '../cluster/types.ts';
import { sleep } from '../history/clock.ts';
import { describeFault, type FaultStep, type FaultTarget } from '../plan/schedule.ts';
import { LINK_MISBEHAVES } from './classes.ts';
import { healCluster } from './heal.ts';
import { latencyToxic } from './slow-network.ts';
import { resolveTarget } from './target.ts';
import { defineFault, type DrawContext } from './types.ts';

type ToxicStep = Extract<FaultStep, { kind: 'toxic' }>;
type Toxic = ToxicStep['toxic'];

/** A Toxiproxy toxic on a master's client or internal link for `ms`. */
function toxicStep(
  toxic: Toxic,
  at: fc.Arbitrary<number>,
  target: fc.Arbitrary<FaultTarget>,
  ms: fc.Arbitrary<number>,
): fc.Arbitrary<ToxicStep> {
  return fc.record({
    kind: fc.constant('toxic' as const),
    atMs: at,
    target,
    link: fc.constantFrom('client' as const, 'internal' as const),
    toxic: fc.constant(toxic),
    ms,
  });
}

function linkFault<N extends string>(
  name: N,
  toxic: Toxic,
  description: string,
  step: (ctx: DrawContext) => fc.Arbitrary<FaultStep>,
) {
  return defineFault({
    name,
    description,
    backends: 'any',
    external: 'never',
    recordedAs: 'toxic',
    draw: { lane: 'cluster', class: LINK_MISBEHAVES, step },
    is: (s): s is ToxicStep => s.kind === 'toxic' && s.toxic === toxic,
    lossy: () => false,
    cutsConnections: () => true,
    async apply(s, ctx) {
      const detail = describeFault(s);
      const t = await resolveTarget(ctx.cluster, ctx.slotOf(s.target.key), s.target.role);
      if (!t) return { kind: 'toxic', target: 'none', lossy: false, detail: `${detail}: no such node` };
      const spec: ToxicSpec =
        s.toxic === 'latency'
          ? latencyToxic(s.delayMs ?? s.ms)
          : { type: s.toxic, attributes: { timeout: s.toxic === 'timeout' ? 0 : s.ms } };
      await ctx.cluster.toxic(t.node, s.link, spec);
      await sleep(s.ms);
      const cutsConnections = s.link === 'client' && s.toxic !== 'latency';
      return { kind: 'toxic', target: `${t.label} ${s.link} link`, lossy: false, cutsConnections, detail };
    },
    heal: healCluster,
  });
}

/** A slow link for several round trips: widens the gap between two commands of one operation. */
export const latency = linkFault(
  'latency',
  'latency',
  "latency on a master's client or internal link for a while",
  ({ at, target }) =>
    fc
      .tuple(
        toxicStep('latency', at, target(['master']), fc.integer({ min: 300, max: 1_500 })),
        fc.integer({ min: 50, max: 400 }),
      )
      .map(([step, delayMs]) => ({ ...step, delayMs })),
);

export const timeout = linkFault(
  'timeout',
  'timeout',
  "a master's client or internal link passes no data for a while (connections hang)",
  ({ at, target }) => toxicStep('timeout', at, target(['master']), fc.integer({ min: 100, max: 600 })),
);

export const resetPeer = linkFault(
  'reset-peer',
  'reset_peer',
  "connections on a master's client or internal link are reset",
  ({ at, target }) => toxicStep('reset_peer', at, target(['master']), fc.integer({ min: 50, max: 300 })),
);
