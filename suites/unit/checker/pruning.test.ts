/**
 * Pruning handed in with the spec (CheckSpec.pruning): a pattern adds what its model's answers let
 * the search drop without editing the checker. Absent, the model's own hooks choose it (MODEL_PRUNING);
 * a list given replaces it, so an empty one searches bare: same verdict, many more states.
 */
import { describe, expect, it } from 'vitest';
import { check, DROP, KEEP, MODEL_PRUNING, type PrunerFactory } from '../../../src/checker/index.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { pollingLockHistory } from './oracle/polling-lock.ts';

const states = (result: ReturnType<typeof check>) => result.keys.reduce((n, k) => n + k.statesExplored, 0);

describe('pruning supplied with the spec', () => {
  it('absent: the pruning the model enables; the same list given explicitly explores the same states', () => {
    const { history } = pollingLockHistory(58);
    const byDefault = check(history, PATTERNS.lock, { minimise: false });
    const explicit = check(history, { ...PATTERNS.lock, pruning: MODEL_PRUNING }, { minimise: false });
    expect(byDefault.verdict).toBe(explicit.verdict);
    expect(states(explicit)).toBe(states(byDefault));
  });

  it('none: the same verdict, found the long way', () => {
    const { history } = pollingLockHistory(58);
    const pruned = check(history, PATTERNS.lock, { minimise: false });
    const bare = check(history, { ...PATTERNS.lock, pruning: [] }, { minimise: false });
    expect(bare.verdict).toBe(pruned.verdict);
    expect(states(bare)).toBeGreaterThan(10 * states(pruned));
  });

  it("a pattern's own pruner is asked at every configuration the search enters", () => {
    const { history } = pollingLockHistory(3);
    let asked = 0;
    const counting: PrunerFactory<unknown, unknown, unknown> = () => ({ enter: () => (asked++, KEEP) });
    const result = check(history, { ...PATTERNS.lock, pruning: [...MODEL_PRUNING, counting] }, { minimise: false });
    expect(asked).toBeGreaterThan(0);
    expect(asked).toBeGreaterThanOrEqual(states(result));
    // One that drops every configuration leaves no linearization: the verdict says so.
    const dropAll: PrunerFactory<unknown, unknown, unknown> = () => ({ enter: () => DROP });
    expect(check(history, { ...PATTERNS.lock, pruning: [dropAll] }, { minimise: false }).verdict).toBe('illegal');
  });
});
