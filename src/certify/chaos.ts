/**
 * The concurrent chaos property (in certify, not in the runner: it joins the stages, so the runner
 * stays free of the checker that judges its histories): fast-check draws schedules, each runs
 * against the real cluster, the checker judges its history (./explore.ts), and a failing schedule
 * shrinks to a smaller one that still fails (./shrink-failure.ts).
 */
import type { ChaosContext, ChaosOptions, ChaosOutcome } from './chaos-types.ts';
import { explore } from './explore.ts';
import { shrinkFailure } from './shrink-failure.ts';

export { passes } from './replay.ts';
export {
  discardAllowance,
  type ChaosContext,
  type ChaosOptions,
  type ChaosOutcome,
  type Failure,
  type RunTally,
} from './chaos-types.ts';

/** A chaos job on one cluster: explore, then shrink the first failure there. */
export async function chaos(ctx: ChaosContext, options: ChaosOptions): Promise<ChaosOutcome> {
  const explored = await explore(ctx, options);
  return shrinkFailure(explored, [ctx], { ...ctx, options }, ctx.onRun);
}
