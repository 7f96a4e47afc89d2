/**
 * Answer counts per operation, and what they say about how well each invariant was witnessed. A
 * certificate built on acknowledged answers and one built on indeterminate ones (timeouts, cut
 * connections, errors without a Redis code: the checker lets them take effect or not) read alike
 * unless the counts are shown: a library whose release returns nothing has every release
 * indeterminate, and no stale release of it could ever be caught. Pure: reads the evidence's tallies.
 */
import type { AnyPattern } from '../patterns/types.ts';
import type { OperationTally } from './evidence.ts';

/**
 * The share of indeterminate answers of a witnessing operation above which an invariant counts as
 * barely witnessed: most of what could have shown a violation showed nothing either way.
 */
export const BARELY_WITNESSED_INFO_SHARE = 0.5;

export interface AnswerShares {
  readonly ok: number;
  readonly fail: number;
  readonly info: number;
}

/** Each outcome's share of an operation's answers (0 when it was never issued), to 3 decimals. */
export function answerShares(o: OperationTally): AnswerShares {
  const share = (n: number) => (o.issued === 0 ? 0 : Math.round((n / o.issued) * 1000) / 1000);
  return { ok: share(o.ok), fail: share(o.fail), info: share(o.info) };
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** `release 40: 10 ok (25%) · 0 fail (0%) · 30 indeterminate (75%)` */
export function answersText(o: OperationTally): string {
  const s = answerShares(o);
  return `${o.op} ${o.issued}: ${o.ok} ok (${percent(s.ok)}) · ${o.fail} fail (${percent(s.fail)}) · ${o.info} indeterminate (${percent(s.info)})`;
}

/**
 * Why an invariant was barely witnessed, or undefined: each witnessing operation whose answers were
 * mostly indeterminate, e.g. `barely witnessed: 358 of 358 release answers indeterminate (100%)`.
 */
export function barelyWitnessed(
  pattern: AnyPattern,
  invariant: string,
  operations: readonly OperationTally[],
): string | undefined {
  const witnesses = pattern.witnesses[invariant];
  const weak = operations.filter(
    (o) =>
      (witnesses === undefined || witnesses.includes(o.op)) &&
      o.issued > 0 &&
      o.info / o.issued >= BARELY_WITNESSED_INFO_SHARE,
  );
  if (weak.length === 0) return undefined;
  return `barely witnessed: ${weak.map((o) => `${o.info} of ${o.issued} ${o.op} answers indeterminate (${percent(o.info / o.issued)})`).join(', ')}`;
}
