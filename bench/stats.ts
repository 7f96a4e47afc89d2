/** Median and percentiles over a sample, for the benchmark scripts. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index];
}

export const median = (values: readonly number[]) => quantile(values, 0.5);

export const fmt = (ms: number) => `${ms.toFixed(0).padStart(5)} ms`;
