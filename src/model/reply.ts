/**
 * Representation-tolerant comparison of one reply element. Clients disagree on how a Redis reply
 * looks (ioredis gives strings and numbers, `*Buffer` variants give Buffers, the process protocol
 * may send numbers as JSON strings); the models accept those and nothing looser: no trimming,
 * no booleans, no numeric parsing of strings ("01" is not 1).
 */

/** The text of a bulk or integer reply element, or undefined when it is neither. */
export function replyText(observed: unknown): string | undefined {
  if (typeof observed === 'string') return observed;
  if (typeof observed === 'number') return Number.isSafeInteger(observed) ? String(observed) : undefined;
  if (typeof observed === 'bigint') return String(observed);
  if (observed instanceof Uint8Array) return Buffer.from(observed).toString('utf8');
  return undefined;
}

/** Is `observed` the integer reply `expected`? */
export function integerReplyMatches(expected: number, observed: unknown): boolean {
  return replyText(observed) === String(expected);
}

/** Is `observed` the nil reply? (ioredis gives null; JSON and some clients give undefined.) */
export function isNilReply(observed: unknown): boolean {
  return observed === null || observed === undefined;
}

/** A string for describe*: quoted, so that '' and a missing value, or "a, b" and two values, read apart. */
export function quote(text: string): string {
  return JSON.stringify(text);
}

/** Model inputs come from generators and histories; a malformed one is a harness bug, not a verdict. */
export function requireInteger(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name}: expected an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}
