import { describeFault, type AimedDelayStep } from '../plan/schedule.ts';
import { ANY_DATA_COMMAND } from '../resp/index.ts';
import { describeCaught, SETTLE_GRACE_MS, sideToHold, timer, ttlReader } from './command-apply.ts';
import type { Applied, NemesisContext } from './types.ts';

/**
 * Wait for the operation the delay is aimed at; once its client invokes it, arm a rule on the
 * operation key's slot that catches the first data command there, whatever its name, until the
 * operation is answered; then wait until the hold has played out. Undefined when the operation
 * never came (its client's steps ended first, or the run has no operation watch): nothing was
 * applied, so there is nothing to record.
 */
export async function applyAimedDelay(fault: AimedDelayStep, ctx: NemesisContext): Promise<Applied | undefined> {
  const detail = describeFault(fault);
  const points = ctx.cluster.commands;
  const invoked = await ctx.operations?.invoked(fault.client, fault.op);
  if (!invoked) return undefined;
  const startedAt = invoked.at;
  if (!points)
    return {
      kind: 'command-delay',
      target: 'none',
      lossy: false,
      startedAt,
      detail: `${detail}: this cluster has no RESP point on its client links`,
    };
  const slot = ctx.slotOf(invoked.key);
  const armed = points.arm(
    fault.refuse
      ? { action: 'refuse', names: [ANY_DATA_COMMAND], slot, limit: 1 }
      : {
          action: fault.on === 'reply' ? 'delay-reply' : 'delay-request',
          names: [ANY_DATA_COMMAND],
          sideFor: (name) => (sideToHold(name, fault.on) === 'reply' ? 'delay-reply' : 'delay-request'),
          slot,
          holdMs: fault.holdMs,
          limit: 1,
          ...(fault.pastExpiryMs === undefined ? {} : { pastExpiryMs: fault.pastExpiryMs, ttlOf: ttlReader(ctx) }),
          ...(fault.pastTouchMs === undefined ? {} : { pastTouchMs: fault.pastTouchMs }),
        },
  );
  try {
    await Promise.race([invoked.ended, armed.full]);
  } finally {
    armed.disarm();
  }
  const grace = timer(fault.holdMs + SETTLE_GRACE_MS);
  const settled = await Promise.race([armed.settled().then(() => true), grace.done.then(() => false)]);
  grace.clear();
  if (!settled) points.reset();
  const caught = armed.caught[0];
  const held = !caught
    ? ''
    : fault.refuse
      ? ` (${caught.name}: refused)`
      : ` (${caught.name}: ${sideToHold(caught.name, fault.on) === 'reply' ? 'its reply' : 'its forwarding'} held)`;
  return {
    kind: 'command-delay',
    target: `client links, slot ${slot} (k${invoked.key})`,
    lossy: false,
    startedAt,
    detail: `${detail}${held}; caught ${describeCaught(armed.caught, ctx)}`,
  };
}
