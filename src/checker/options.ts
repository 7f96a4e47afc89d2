import type { CheckOptions, ResolvedCheckOptions } from './types.ts';

export const defaultCheckOptions: ResolvedCheckOptions = Object.freeze({
  eps: 25,
  budget: 500_000,
  budgetMs: Infinity,
  minimise: true,
  minimiseBudget: 200_000,
});

const knownOptions = new Set(Object.keys(defaultCheckOptions));

/** Validates once, at the edge; everything past this point trusts the numbers. */
export function resolveCheckOptions(options: CheckOptions = {}): ResolvedCheckOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`check options must be an object, got ${String(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (!knownOptions.has(name)) {
      throw new TypeError(`unknown check option "${name}" (known: ${[...knownOptions].join(', ')})`);
    }
  }
  const resolved = { ...defaultCheckOptions, ...stripUndefined(options) };
  if (typeof resolved.eps !== 'number' || !Number.isFinite(resolved.eps) || resolved.eps < 0) {
    throw new RangeError(`check option "eps" must be a finite number of ms >= 0, got ${String(resolved.eps)}`);
  }
  requirePositiveInteger('budget', resolved.budget);
  if (typeof resolved.budgetMs !== 'number' || Number.isNaN(resolved.budgetMs) || resolved.budgetMs <= 0) {
    throw new RangeError(
      `check option "budgetMs" must be a number of ms > 0 (Infinity for none), got ${String(resolved.budgetMs)}`,
    );
  }
  requirePositiveInteger('minimiseBudget', resolved.minimiseBudget);
  if (typeof resolved.minimise !== 'boolean') {
    throw new TypeError(`check option "minimise" must be a boolean, got ${String(resolved.minimise)}`);
  }
  return Object.freeze(resolved);
}

function requirePositiveInteger(name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`check option "${name}" must be a positive integer, got ${String(value)}`);
  }
}

function stripUndefined(options: CheckOptions): CheckOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}
