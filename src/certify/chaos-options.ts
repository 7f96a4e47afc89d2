import type { CheckOptions } from '../checker/types.ts';
import type { FaultName } from '../faults/index.ts';
import type { ChaosOptions } from './chaos.ts';
import type { Shard } from '../runner/shard.ts';
import { DRAWN_CLIENTS, DRAWN_KEYS } from './options.ts';

export { MAX_CLIENTS } from './options.ts';

export { HANDSHAKE_TIMEOUT_MS, OP_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './timeouts.ts';
import { OP_TIMEOUT_MS } from './timeouts.ts';

export interface JobChaosConstraints {
  readonly runs: number;
  readonly seed: number;
  readonly faults: readonly FaultName[];
  readonly timeLimitMs: number;
  readonly shrinkRuns: number;
  /** Stop shrinking after this long, ms; absent or 0: no limit. */
  readonly shrinkTimeMs?: number;
  readonly nodeTimeoutMs: number;
  /** fast-check replay path, with the same seed. */
  readonly path?: string;
  /** Default DRAWN_CLIENTS (./options.ts). */
  readonly clients?: number | readonly [number, number];
  /** Default DRAWN_KEYS (./options.ts). */
  readonly keys?: number | readonly [number, number];
  readonly runId?: string;
  readonly check?: CheckOptions;
  readonly stopEarly?: () => boolean;
  readonly shard?: Shard;
  /** The operations the implementation supports (its capabilities); default all. */
  readonly operations?: readonly string[];
  /** The pattern's settings (JobOptions.settings); default each one's default. */
  readonly settings?: Readonly<Record<string, number>>;
  /** The faults' settings (JobOptions.faultSettings); default each one's default. */
  readonly faultSettings?: Readonly<Record<string, number>>;
}

/**
 * The chaos options of every job — `certify`/`run`, the reference chaos of the soak and the
 * false-alarm suite, the mutant suite — so that what the tests prove is what users run.
 */
export function jobChaosOptions(c: JobChaosConstraints): ChaosOptions {
  return {
    runs: c.runs,
    seed: c.seed,
    path: c.path,
    timeLimitMs: c.timeLimitMs,
    shrinkRuns: c.shrinkRuns,
    ...(c.shrinkTimeMs ? { shrinkTimeMs: c.shrinkTimeMs } : {}),
    opTimeoutMs: OP_TIMEOUT_MS,
    nodeTimeoutMs: c.nodeTimeoutMs,
    runId: c.runId,
    check: c.check,
    stopEarly: c.stopEarly,
    shard: c.shard,
    schedule: {
      faults: c.faults,
      clients: c.clients ?? DRAWN_CLIENTS,
      keys: c.keys ?? DRAWN_KEYS,
      nodeTimeoutMs: c.nodeTimeoutMs,
      ...(c.operations ? { operations: c.operations } : {}),
      ...(c.settings ? { settings: c.settings } : {}),
      ...(c.faultSettings ? { faultSettings: c.faultSettings } : {}),
    },
  };
}
