import { describe, expect, it } from 'vitest';
import { parseYaml } from './yaml-subset.ts';

// The compose-file suite trusts this parser; these cases prove it reads what that file uses.
describe('yaml-subset', () => {
  it('reads nested maps, lists, lists of maps, flow lists, quotes and comments', () => {
    const text = [
      '# comment',
      'a:',
      '  b: plain value:with colon  # trailing comment',
      '  c: "quoted # not a comment"',
      "  d: 'it''s'",
      '  e: [x, "y, z", 3]',
      '  f:',
      '    - one',
      '    - key: 1',
      '      other: two',
      '  g: ~',
    ].join('\n');
    expect(parseYaml(text)).toEqual({
      a: {
        b: 'plain value:with colon',
        c: 'quoted # not a comment',
        d: "it's",
        e: ['x', 'y, z', '3'],
        f: ['one', { key: '1', other: 'two' }],
        g: null,
      },
    });
  });

  it('reads literal and folded block scalars with chomping', () => {
    const text = [
      'lit: |',
      '  line 1',
      '    indented',
      '  line 3',
      'fold: >-',
      '  a b',
      '  c',
      '',
      '  d',
      'list:',
      '  - >-',
      '    x',
      '    y',
      'after: z',
    ].join('\n');
    expect(parseYaml(text)).toEqual({
      lit: 'line 1\n  indented\nline 3\n',
      fold: 'a b c\nd',
      list: ['x y'],
      after: 'z',
    });
  });

  it('rejects what it does not understand instead of misreading it', () => {
    expect(() => parseYaml('a: &anchor 1')).toThrow(/unsupported/);
    expect(() => parseYaml('a: 1\na: 2')).toThrow(/duplicate key 'a'/);
    expect(() => parseYaml('a: 1\n   b: 2')).toThrow(/line 2/);
    expect(() => parseYaml('a: [1, 2')).toThrow(/unterminated/);
  });
});
