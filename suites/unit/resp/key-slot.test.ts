import { describe, expect, it } from 'vitest';
import { crc16, hashTagOf, keySlot } from '../../../src/resp/key-slot.ts';

describe('keySlot', () => {
  it('computes CRC16/XMODEM: the check value of "123456789" is 0x31C3', () => {
    expect(crc16(Buffer.from('123456789'))).toBe(0x31c3);
  });

  it('matches slots Redis reports for plain keys (CLUSTER KEYSLOT, from the cluster spec examples)', () => {
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('somekey')).toBe(11058);
    expect(keySlot('hello')).toBe(866);
  });

  it('hashes only the first non-empty {tag}', () => {
    expect(keySlot('{user1000}.following')).toBe(keySlot('{user1000}.followers'));
    expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
    expect(Buffer.from(hashTagOf(Buffer.from('foo{}{bar}'))).toString()).toBe('foo{}{bar}');
    expect(Buffer.from(hashTagOf(Buffer.from('foo{{bar}}zap'))).toString()).toBe('{bar');
    expect(Buffer.from(hashTagOf(Buffer.from('foo{bar}{zap}'))).toString()).toBe('bar');
    expect(Buffer.from(hashTagOf(Buffer.from('foo{bar'))).toString()).toBe('foo{bar');
  });

  it('hashes UTF-8 bytes of string keys', () => {
    expect(keySlot('clé')).toBe(keySlot(Buffer.from('clé', 'utf8')));
    expect(keySlot('clé')).not.toBe(keySlot(Buffer.from('clé', 'latin1')));
  });
});
