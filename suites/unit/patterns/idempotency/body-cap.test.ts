import { describe, expect, it } from 'vitest';
import {
  BodyTooLargeError,
  MAX_BODY_BYTES,
  bodyBytes,
  checkBodySize,
} from '../../../../src/patterns/idempotency/body-cap.ts';

describe('body cap', () => {
  it('is 64 KiB', () => {
    expect(MAX_BODY_BYTES).toBe(65536);
  });

  it('accepts a body of exactly the cap and refuses one byte more', () => {
    expect(checkBodySize('x'.repeat(65536))).toBe(65536);
    expect(() => checkBodySize('x'.repeat(65537))).toThrow(BodyTooLargeError);
  });

  it('counts UTF-8 bytes, not characters', () => {
    expect(bodyBytes('é')).toBe(2);
    expect(checkBodySize('é'.repeat(32768))).toBe(65536);
    expect(() => checkBodySize('é'.repeat(32769))).toThrow(BodyTooLargeError);
  });

  it('names the size and the cap in the error', () => {
    const error = (() => {
      try {
        checkBodySize(Buffer.alloc(70000));
      } catch (e) {
        return e as BodyTooLargeError;
      }
    })();
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect(error?.bytes).toBe(70000);
    expect(error?.cap).toBe(65536);
    expect(error?.message).toMatch(/70000 bytes.*65536-byte \(64 KiB\) cap/);
  });
});
