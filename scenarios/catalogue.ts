/** Every scenario `chaoslua scenario` knows, the idempotency store's known failures first, then the rate limiter's hazards. */
import type { AnyScenario } from '../src/scenario/index.ts';
import { undeclaredKey } from './undeclared-key/index.ts';
import { noscriptAfterFailover } from './noscript-after-failover/index.ts';
import { staleCompletion } from './stale-completion/index.ts';
import { releaseResurrection } from './release-resurrection/index.ts';
import { leaseOutlived } from './lease-outlived/index.ts';
import { lossyFailover } from './lossy-failover/index.ts';
import { slowScript } from './slow-script/index.ts';
import { hotSlot } from './hot-slot/index.ts';
import { unboundedBody } from './unbounded-body/index.ts';

export const SCENARIOS: readonly AnyScenario[] = [
  undeclaredKey,
  noscriptAfterFailover,
  staleCompletion,
  leaseOutlived,
  unboundedBody,
  releaseResurrection,
  slowScript,
  lossyFailover,
  hotSlot,
];

export function findScenario(name: string): AnyScenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}
