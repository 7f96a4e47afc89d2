import { ms, opPhrase } from '../describe.ts';
import type { StuckContext } from './types.ts';

/** "client 1's register(...) (op 1, 0–10 ms), whose lease could not run out before 975 ms" */
export function holderPhrase<S, I, O>(context: StuckContext<S, I, O>, leaseWord: string): string | undefined {
  const { holder, holderLeaseFloor, model } = context;
  if (holder === undefined) return undefined;
  const floor =
    holderLeaseFloor !== undefined && holderLeaseFloor > context.op.invokedAt
      ? `, whose ${leaseWord} could not run out before ${ms(holderLeaseFloor)} ms`
      : '';
  return `${opPhrase(model, holder)}${floor}`;
}

export function keyName(key: string): string {
  return JSON.stringify(key);
}
