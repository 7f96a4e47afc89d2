/**
 * The time scale of a pattern's sessions as settings (`--set lease=1000 --set lease2=2000`): the two
 * leases (or TTLs) a session draws from, in milliseconds. Libraries that count in whole seconds
 * (python-redis-lock's `expire`, Redisson's lease times, a completed record's `expires_after_seconds`)
 * are then judged on safety at their own granularity, not rejected for model-conformance because a
 * 250 ms lease rounds to 0 s. The defaults are what the sessions drew when these were constants, so a
 * pinned seed draws the same schedule. Pauses drawn from a lease (a stall past it, a poll just before
 * it ends) follow it; think times and retries stay short, as a client's are whatever its leases.
 */
import { setting, type SessionSetting } from '../generator/settings.ts';
import type { SessionOptions } from '../generator/sessions/common.ts';

/** At least the generator's shortest lease (50 ms); at most a minute, since a session may stall twice a lease past it. */
const LEASE = { min: 50, max: 60_000 } as const;

/** The lease settings of a pattern whose sessions drew leases of 250 and 500 ms. */
export const leaseSettings = {
  lease: {
    description: 'a lease or TTL a session draws, in ms (whole seconds: 1000, 2000, ...)',
    ...LEASE,
    default: 250,
  },
  lease2: { description: 'the other lease or TTL a session draws, in ms', ...LEASE, default: 500 },
} as const satisfies Readonly<Record<string, SessionSetting>>;

/** The completed-record TTL settings of the idempotency store, whose sessions drew 800 and 3,000 ms. */
export const ttlSettings = {
  ttl: { description: "a completed record's TTL a session draws, in ms", min: 1, max: 600_000, default: 800 },
  ttl2: { description: 'the other completed TTL a session draws, in ms', min: 1, max: 600_000, default: 3_000 },
} as const satisfies Readonly<Record<string, SessionSetting>>;

/** The leases a session draws from: the job's `lease` and `lease2`. */
export const leasesOf = (options: SessionOptions): readonly [number, number] => [
  setting(options.settings, 'lease'),
  setting(options.settings, 'lease2'),
];

/** The completed TTLs a session draws from: the job's `ttl` and `ttl2`. */
export const ttlsOf = (options: SessionOptions): readonly [number, number] => [
  setting(options.settings, 'ttl'),
  setting(options.settings, 'ttl2'),
];
