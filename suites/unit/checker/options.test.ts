/** Options are validated once, with messages that name the option. */
import { describe, expect, it } from 'vitest';
import { check, defaultCheckOptions, resolveCheckOptions } from '../../../src/checker/index.ts';
import { leaseRegister } from './support/lease-register.ts';
import { history, op } from './support/ops.ts';

describe('check options', () => {
  it('fills in the defaults', () => {
    expect(resolveCheckOptions()).toEqual(defaultCheckOptions);
    expect(resolveCheckOptions({ eps: 3 })).toEqual({ ...defaultCheckOptions, eps: 3 });
    expect(resolveCheckOptions({ eps: undefined })).toEqual(defaultCheckOptions);
    expect(resolveCheckOptions({ budgetMs: 10_000 }).budgetMs).toBe(10_000);
    expect(defaultCheckOptions.budgetMs).toBe(Infinity);
  });

  it.each([
    [{ eps: -1 }, /"eps"/],
    [{ eps: Number.NaN }, /"eps"/],
    [{ eps: Infinity }, /"eps"/],
    [{ budget: 0 }, /"budget"/],
    [{ budget: 1.5 }, /"budget"/],
    [{ minimiseBudget: -3 }, /"minimiseBudget"/],
    [{ budgetMs: 0 }, /"budgetMs"/],
    [{ budgetMs: Number.NaN }, /"budgetMs"/],
    [{ budgetMs: '10s' }, /"budgetMs"/],
    [{ minimise: 'yes' }, /"minimise"/],
    [{ epsilon: 25 }, /unknown check option "epsilon"/],
  ])('rejects %j naming the option', (options, message) => {
    expect(() => resolveCheckOptions(options as never)).toThrow(message);
  });

  it('validates at the edge of check, before any search', () => {
    const ops = [op(1, { op: 'read' as const }, 0, 1, { output: null })];
    expect(() => check(history(ops), leaseRegister, { budget: 0 })).toThrow(/"budget"/);
  });

  it('refuses a history whose op ids repeat: ids are the lease tags', () => {
    const first = op(1, { op: 'read' as const }, 0, 1, { output: null });
    const again = { ...op(2, { op: 'read' as const }, 2, 3, { output: null }), id: first.id };
    expect(() => check(history([first, again]), leaseRegister)).toThrow(new RegExp(`op id ${first.id}`));
  });
});
