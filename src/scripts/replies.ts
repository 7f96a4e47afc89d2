/** Turning raw script replies into typed results; anything off-contract is an UnexpectedReplyError. */

export class UnexpectedReplyError extends Error {
  override readonly name = 'UnexpectedReplyError';
  constructor(
    readonly script: string,
    readonly reply: unknown,
    expected: string,
  ) {
    super(`${script} answered ${describeReply(reply)}; the contract says ${expected}`);
  }
}

export function describeReply(reply: unknown): string {
  if (reply === null || reply === undefined) return 'nil';
  if (Buffer.isBuffer(reply)) return JSON.stringify(reply.toString('utf8'));
  if (Array.isArray(reply)) return `[${reply.map(describeReply).join(', ')}]`;
  return typeof reply === 'string' ? JSON.stringify(reply) : String(reply);
}

/** 0 or 1 as a boolean. */
export function zeroOrOne(script: string, reply: unknown): boolean {
  if (reply === 1) return true;
  if (reply === 0) return false;
  throw new UnexpectedReplyError(script, reply, '0 or 1');
}
