import { UnexpectedReplyError } from '../../pattern.ts';

export type RecordState = 'pending' | 'completed';

export type Registration =
  | { readonly kind: 'fresh' }
  | {
      readonly kind: 'hit';
      readonly state: RecordState;
      readonly fingerprint: string;
      /** null while pending (the script answers '' for a missing field). */
      readonly status: number | null;
      readonly body: string;
    };

const SHAPE = "{'fresh'} or {'hit', 'pending'|'completed', fingerprint, status, body}";

export function parseRegistration(reply: unknown): Registration {
  if (!Array.isArray(reply)) throw new UnexpectedReplyError('register_or_get', reply, SHAPE);
  const [tag, state, fingerprint, status, body] = reply.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : v));
  if (tag === 'fresh' && reply.length === 1) return { kind: 'fresh' };
  if (tag !== 'hit' || reply.length !== 5 || (state !== 'pending' && state !== 'completed'))
    throw new UnexpectedReplyError('register_or_get', reply, SHAPE);
  if (typeof fingerprint !== 'string' || typeof body !== 'string' || typeof status !== 'string')
    throw new UnexpectedReplyError('register_or_get', reply, SHAPE);
  const code = status === '' ? null : Number(status);
  if (code !== null && !Number.isInteger(code))
    throw new UnexpectedReplyError('register_or_get', reply, `${SHAPE} with an integer status`);
  return { kind: 'hit', state, fingerprint, status: code, body };
}
