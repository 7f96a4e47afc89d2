import { describe, expect, it } from 'vitest';
import { lintFixture, located } from './fixtures.ts';

const rule = 'owner-check-first';

describe('owner-check-first', () => {
  it("passes the seed's complete.lua: the owner comparison comes first", async () => {
    expect(await lintFixture('owner-check-first/complete.lua')).toEqual([]);
  });

  it('flags every write of a complete.lua that lost its owner comparison', async () => {
    const findings = await lintFixture('owner-check-first/complete_without_owner_check.lua');
    expect(located(findings)).toEqual([`${rule}@4:1`, `${rule}@5:1`]);
    expect(findings[0].message).toContain('ARGV[1] (owner)');
  });

  it('passes register_or_get: it writes only after finding the key empty', async () => {
    expect(await lintFixture('owner-check-first/register_or_get.lua')).toEqual([]);
  });

  it('finds the owner among several ARGV entries on one comment line and flags a write with no absence check', async () => {
    const findings = await lintFixture('owner-check-first/register_without_absence_check.lua');
    expect(located(findings)).toEqual([`${rule}@5:1`]);
    expect(findings[0].message).toContain('ARGV[2] (owner)');
  });

  it('leaves a release that checks the owner but not the state alone', async () => {
    expect(await lintFixture('owner-check-first/release_without_state_check.lua')).toEqual([]);
  });

  it('learns the owner argument from a comparison with the stored owner field', async () => {
    expect(located(await lintFixture('owner-check-first/owner_from_comparison.lua'))).toEqual([`${rule}@3:1`]);
  });

  it('flags a write on the mismatch branch but not after the path proved a match', async () => {
    expect(located(await lintFixture('owner-check-first/write_on_mismatch_path.lua'))).toEqual([`${rule}@5:3`]);
  });

  it('flags a write after an if whose other path never compared', async () => {
    expect(located(await lintFixture('owner-check-first/write_after_one_sided_check.lua'))).toEqual([`${rule}@7:8`]);
  });

  it('accepts SET NX, a comparison kept in a local, and the `== token and DEL` idiom', async () => {
    expect(await lintFixture('owner-check-first/lock_and_or_idiom.lua')).toEqual([]);
  });

  it('accepts a record created by HSETNX == 1, and a write after `EXISTS key == 1 then return`', async () => {
    expect(await lintFixture('owner-check-first/created_by_hsetnx.lua')).toEqual([]);
    expect(await lintFixture('owner-check-first/exists_then_return.lua')).toEqual([]);
  });

  it("flags a SETNX read as a boolean (0 is truthy), EXISTS of two keys, and HSETNX's 0 (it was already there)", async () => {
    expect(located(await lintFixture('owner-check-first/created_count_misread.lua'))).toEqual([
      `${rule}@4:3`,
      `${rule}@9:1`,
      `${rule}@11:3`,
    ]);
    expect(located(await lintFixture('owner-check-first/exists_of_unpacked_keys.lua'))).toEqual([`${rule}@6:1`]);
  });

  it('walks local helpers with the guards of their caller', async () => {
    expect(await lintFixture('owner-check-first/helper_after_check.lua')).toEqual([]);
  });

  it('does not apply to scripts that take no owner or token', async () => {
    expect(await lintFixture('owner-check-first/no_owner_argument.lua')).toEqual([]);
  });
});
