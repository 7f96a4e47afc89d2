import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';

/**
 * `idem:v1:{credential:route:key}`: the braces make Redis hash only the inner part, so everything
 * one operation touches shares a slot, and tenants spread over shards by key (not one hot slot each).
 * '%', ':', '{' and '}' inside a part are percent-encoded: otherwise ('a:b','c','d') and ('a','b:c','d')
 * would share a record (one caller replaying another's response), and a '}' would cut the hash tag short.
 */
export function scopedKey(credential: string, route: string, key: string): string {
  const parts = { credential, route, key };
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value !== 'string' || value.length === 0)
      throw new TypeError(`scopedKey: ${name} must be a non-empty string`);
  }
  return `idem:v1:{${encodePart(credential)}:${encodePart(route)}:${encodePart(key)}}`;
}

function encodePart(part: string): string {
  return part.replace(/[%:{}]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** This process's identity in owner tokens: host, pid and a random suffix (pids repeat across hosts and restarts). */
export function defaultInstanceId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** 16 hex characters, fresh for every attempt. */
export function attemptNonce(): string {
  return randomBytes(8).toString('hex');
}

/**
 * Owner token = instance id + '/' + attempt nonce: the instance says who to blame in a stale-completion
 * alert, the nonce keeps two attempts of the same instance apart (a retry must not inherit a lease).
 */
export function makeOwner(instanceId: string, nonce: string = attemptNonce()): string {
  if (typeof instanceId !== 'string' || instanceId.length === 0)
    throw new TypeError('makeOwner: instanceId must be a non-empty string');
  if (typeof nonce !== 'string' || nonce.length === 0)
    throw new TypeError('makeOwner: nonce must be a non-empty string');
  return `${instanceId}/${nonce}`;
}
