import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES, formatFinding, lintPath, lintSource } from '../../../src/lint/index.ts';
import { FIXTURES } from './fixtures.ts';

describe('lintPath', () => {
  it('lints every *.lua under a directory, recursively, in path order', async () => {
    const tree = path.join(FIXTURES, 'tree');
    const findings = await lintPath(tree);
    expect(findings.map((f) => [path.relative(tree, f.file), f.rule])).toEqual([
      ['b.lua', 'undeclared-key'],
      [path.join('nested', 'c.lua'), 'nondeterminism'],
    ]);
  });

  it('lints a single file', async () => {
    const findings = await lintPath(path.join(FIXTURES, 'tree', 'nested', 'c.lua'));
    expect(findings.map((f) => f.rule)).toEqual(['nondeterminism']);
  });

  it('rejects a path that does not exist', async () => {
    await expect(lintPath(path.join(FIXTURES, 'missing'))).rejects.toThrow(/ENOENT/);
  });
});

describe('findings', () => {
  it('format as file:line:col rule message', () => {
    const [finding] = lintSource("\n  redis.call('KEYS', '*')", 'scripts/a.lua');
    expect(formatFinding(finding)).toBe(`scripts/a.lua:2:3 keyspace-scan ${finding.message}`);
  });

  it('come with a one-line description for every rule id', () => {
    expect(RULES.map((r) => r.id)).toEqual([
      'syntax',
      'server-support',
      'undeclared-key',
      'keyspace-scan',
      'unbounded-loop',
      'nondeterminism',
      'global-assignment',
      'owner-check-first',
      'eval-shebang',
    ]);
    for (const rule of RULES) expect(rule.description).toMatch(/^[^\n]{10,120}$/);
  });
});
