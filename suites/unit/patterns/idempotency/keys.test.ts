import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attemptNonce, makeOwner, scopedKey } from '../../../../src/patterns/idempotency/keys.ts';
import { hashTagOf } from '../../../../src/resp/key-slot.ts';

describe('scopedKey', () => {
  it("keeps the seed's format for ordinary parts", () => {
    expect(scopedKey('cred_7', 'POST/v1/charges', '01HXYZ3ABC')).toBe('idem:v1:{cred_7:POST/v1/charges:01HXYZ3ABC}');
  });

  it('is injective: different (credential, route, key) never share a record', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), fc.string({ minLength: 1 })),
        fc.tuple(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), fc.string({ minLength: 1 })),
        (a, b) => {
          fc.pre(JSON.stringify(a) !== JSON.stringify(b));
          expect(scopedKey(...a)).not.toBe(scopedKey(...b));
        },
      ),
    );
    expect(scopedKey('a:b', 'c', 'd')).not.toBe(scopedKey('a', 'b:c', 'd'));
  });

  it('hashes all three parts, whatever characters they hold (no brace cuts the tag short)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (c, r, k) => {
        const key = scopedKey(c, r, k);
        const tag = Buffer.from(hashTagOf(Buffer.from(key))).toString();
        expect(`idem:v1:{${tag}}`).toBe(key);
      }),
    );
  });

  it('refuses empty parts, naming the part', () => {
    expect(() => scopedKey('', 'r', 'k')).toThrow(/credential/);
    expect(() => scopedKey('c', '', 'k')).toThrow(/route/);
    expect(() => scopedKey('c', 'r', '')).toThrow(/key/);
  });
});

describe('makeOwner', () => {
  it('is instance id, a slash, then a 16-hex-digit nonce', () => {
    expect(makeOwner('api-3')).toMatch(/^api-3\/[0-9a-f]{16}$/);
    expect(makeOwner('api-3', 'n1')).toBe('api-3/n1');
  });

  it('gives every attempt of one instance its own token', () => {
    const owners = new Set(Array.from({ length: 1000 }, () => makeOwner('i')));
    expect(owners.size).toBe(1000);
    expect(attemptNonce()).not.toBe(attemptNonce());
  });

  it('refuses an empty instance id', () => {
    expect(() => makeOwner('')).toThrow(/instanceId/);
  });
});
