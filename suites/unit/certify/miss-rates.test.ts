import { describe, expect, it } from 'vitest';
import { missRate, upperBound, withTable, generatedSection, START, END } from '../../certify/support/miss-rates.ts';

describe('miss rates of the default budget', () => {
  it('bounds the miss chance with Clopper-Pearson: no miss in n seeds gives 1 - 0.05^(1/n)', () => {
    expect(upperBound(0, 20)).toBeCloseTo(1 - 0.05 ** (1 / 20), 6);
    expect(upperBound(0, 6)).toBeCloseTo(0.393, 3);
    // One miss in 6: the p at which P(X <= 1) = 0.05, from the exact binomial (0.5818).
    expect(upperBound(1, 6)).toBeCloseTo(0.5818, 3);
    expect(upperBound(3, 3)).toBe(1);
    expect(upperBound(0, 0)).toBe(1);
  });

  it('counts a seed as rejected only when its first failure came at run 40 or earlier', () => {
    const rate = missRate('x/y', [
      { seed: 1, run: 1, cap: 50, named: ['a'] },
      { seed: 2, run: 40, cap: 50, named: ['a'] },
      { seed: 3, run: 41, cap: 50, named: ['a'] },
      { seed: 4, run: null, cap: 50, named: [] },
      // Capped below the budget and survived: says nothing about 40 runs, so not judged.
      { seed: 5, run: null, cap: 20, named: [] },
    ]);
    expect(rate).toMatchObject({ seeds: 4, caught: 2, runs: [1, 40] });
    expect(rate.upper).toBeCloseTo(upperBound(2, 4), 9);
  });

  it('replaces only the generated section, and refuses a README without its markers', () => {
    const readme = `intro\n${START}\nold\n${END}\noutro\n`;
    const updated = withTable(readme, 'new table');
    expect(updated).toBe(`intro\n${START}\nnew table\n${END}\noutro\n`);
    expect(generatedSection(updated)).toBe('new table');
    expect(() => withTable('no markers', 't')).toThrow(/markers of the miss-rate table are missing/);
  });
});
