/**
 * The default comparison of a model's answer with a Redis reply, for a model that gives none of its
 * own: equal up to the reply's representation (src/model/reply.ts), element by element for arrays.
 * A model answers as the script replies: a Lua number is an integer reply, `false` and nil are nil,
 * a table is an array.
 */
import { integerReplyMatches, isNilReply, replyText } from '../../model/reply.ts';

export function replyMatches(expected: unknown, observed: unknown): boolean {
  if (expected === null || expected === undefined || expected === false)
    return isNilReply(observed) || observed === false;
  if (expected === true) return observed === true || integerReplyMatches(1, observed);
  if (typeof expected === 'number') return Number.isSafeInteger(expected) && integerReplyMatches(expected, observed);
  if (typeof expected === 'string') return replyText(observed) === expected;
  if (Array.isArray(expected)) {
    return (
      Array.isArray(observed) &&
      observed.length === expected.length &&
      expected.every((e, i) => replyMatches(e, observed[i]))
    );
  }
  return JSON.stringify(expected) === JSON.stringify(observed);
}

export function describeReply(output: unknown): string {
  if (output === null || output === undefined) return 'nil';
  if (typeof output === 'number') return String(output);
  return JSON.stringify(output) ?? String(output);
}
