import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprint } from '../../../../src/patterns/idempotency/fingerprint.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 'x', c: null }] })).toBe('{"a":[2,{"c":null,"d":"x"}],"b":1}');
  });

  it('omits undefined properties and writes -0 as 0', () => {
    expect(canonicalJson({ a: undefined, b: -0 })).toBe('{"b":0}');
  });

  it('refuses what JSON cannot carry faithfully, naming the path', () => {
    expect(() => canonicalJson({ amount: Number.NaN })).toThrow(/\$\.amount/);
    expect(() => canonicalJson({ n: Infinity })).toThrow(/Infinity/);
    expect(() => canonicalJson([1, undefined])).toThrow(/\$\[1\]/);
    expect(() => canonicalJson({ at: new Date(0) })).toThrow(/Date/);
    expect(() => canonicalJson({ big: 1n })).toThrow(/bigint/);
  });

  it('does not depend on property insertion order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (dict) => {
        const reversed = Object.fromEntries(Object.entries(dict).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(dict));
      }),
    );
  });

  it('round-trips: parsing the canonical text gives back an equal value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ noUnicodeString: false }), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('fingerprint', () => {
  it('is the SHA-256 hex of the canonical text', () => {
    const expected = createHash('sha256').update('{"amount":100,"currency":"eur"}').digest('hex');
    expect(fingerprint({ currency: 'eur', amount: 100 })).toBe(expected);
    expect(fingerprint({})).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells different requests apart', () => {
    expect(fingerprint({ amount: 100 })).not.toBe(fingerprint({ amount: 101 }));
    expect(fingerprint({ amount: 100 })).not.toBe(fingerprint({ amount: '100' }));
  });
});
