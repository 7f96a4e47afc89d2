/** The run's monotonic clock: milliseconds since the run started, with sub-ms resolution. */
export interface Clock {
  now(): number;
}

export function startClock(): Clock {
  const t0 = performance.now();
  return { now: () => Math.round((performance.now() - t0) * 1000) / 1000 };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
