import path from 'node:path';
import type { PatternName } from '../../../src/patterns/index.ts';

// The third-party libraries' pinned configurations: the test (../third-party.full.test.ts) checks
// each verdict at the default faults; bench/third-party-clocks.ts re-judges each under the server
// clock faults too.

export const THIRD_PARTY = path.resolve(import.meta.dirname, '../../../examples/third-party');

export interface Pinned {
  readonly folder: string;
  /** The module file, or for a program (Python, Go, Java) the file its command names last. */
  readonly module: string;
  /** A program's command, run from the repository's root as the kept certificate's spec says. */
  readonly command?: string;
  /** What the bootstrap installs (a venv, a binary, a jar), relative to the folder; a module's: node_modules/<library>. */
  readonly installed?: string;
  /** The kept certificate of this configuration, in the folder (the results table's source). */
  readonly certificate: string;
  readonly library: string;
  readonly pattern: PatternName;
  readonly seed: number;
  /** `--set` flags the kept certificate was earned with (its `settings` must say the same). */
  readonly set?: readonly string[];
  /** `--faults` when the kept certificate was earned with fewer than all (its `faultsAsked`): the fault that decides it. */
  readonly faults?: readonly string[];
  /** `--runs` when the kept certificate was earned with fewer than the default (the least that decides it). */
  readonly runs?: number;
  /** `--time-limit` when the job runs longer than the default allows with room (windows of several seconds). */
  readonly timeLimit?: string;
  /**
   * certified, rejected for one of the named invariants (which run fails first may depend on timing:
   * each is explained in the folder's findings/), or not certified for one finding (a behaviour over
   * the whole job).
   */
  readonly verdict: 'certified' | { readonly invariant: readonly string[] } | { readonly finding: string };
}

export const PINNED: readonly Pinned[] = [
  // Certified since the adapter declares what redlock does (a failed acquire gives its own value back;
  // an extend refused on the client's clock writes nothing): findings/README.md has the earlier rejections.
  {
    folder: 'redlock',
    module: 'store.mjs',
    certificate: 'certificate.json',
    library: 'redlock',
    pattern: 'lock',
    seed: 1301,
    verdict: 'certified',
  },
  {
    folder: 'redis-semaphore-semaphore',
    module: 'store.mjs',
    certificate: 'certificate.json',
    library: 'redis-semaphore',
    pattern: 'semaphore',
    seed: 1302,
    verdict: { invariant: ['at-most-limit', 'model-conformance'] },
  },
  {
    folder: 'node-idempotency',
    module: 'store.mjs',
    certificate: 'certificate.json',
    library: '@node-idempotency/core',
    pattern: 'idempotency',
    seed: 1305,
    // one-winner too: a marker that expires between the library's SET NX and its GET resolves
    // "run the handler" with no marker stored (its README's non-promises), so the next register is
    // fresh as well; a clean clone of 8582eb4 met it on this seed (two fresh answers at 501 and 529 ms).
    verdict: { invariant: ['model-conformance', 'no-resurrection', 'one-winner'] },
  },
  {
    folder: 'rate-limiter-flexible',
    module: 'store.mjs',
    certificate: 'certificate.json',
    library: 'rate-limiter-flexible',
    pattern: 'ratelimit',
    seed: 1303,
    verdict: 'certified',
  },
  // A window of 3 s, the shortest that outlasts the longest fault drawn: each run is about 2.5 times longer.
  {
    folder: 'rate-limiter-flexible',
    module: 'store.mjs',
    certificate: 'certificate.window-3s.json',
    library: 'rate-limiter-flexible',
    pattern: 'ratelimit',
    seed: 1308,
    set: ['window=3'],
    timeLimit: '15m',
    verdict: 'certified',
  },
  {
    folder: 'rate-limit-redis',
    module: 'store.mjs',
    certificate: 'certificate.json',
    library: 'rate-limit-redis',
    pattern: 'ratelimit',
    seed: 1306,
    verdict: { finding: 'noscript-unhandled' },
  },
  {
    folder: 'rate-limit-redis',
    module: 'store.cluster.mjs',
    certificate: 'certificate.cluster.json',
    library: 'rate-limit-redis',
    pattern: 'ratelimit',
    seed: 1307,
    verdict: 'certified',
  },
  // Python, Go and Java, through cmd: with the kits (examples/kits).
  {
    folder: 'pottery-redlock',
    module: 'adapter.py',
    command: 'examples/third-party/pottery-redlock/.venv/bin/python examples/third-party/pottery-redlock/adapter.py',
    installed: '.venv/lib',
    certificate: 'certificate.json',
    library: 'pottery',
    pattern: 'lock',
    seed: 1401,
    faults: ['busy-script'],
    verdict: { invariant: ['model-conformance'] },
  },
  // One record TTL per configuration (60 s, longer than any run), so both completed TTLs are set to it.
  {
    folder: 'powertools-idempotency',
    module: 'adapter.py',
    command:
      'examples/third-party/powertools-idempotency/.venv/bin/python examples/third-party/powertools-idempotency/adapter.py',
    installed: '.venv/lib',
    certificate: 'certificate.json',
    library: 'aws-lambda-powertools',
    pattern: 'idempotency',
    seed: 1403,
    set: ['ttl=60000', 'ttl2=60000'],
    verdict: { invariant: ['model-conformance', 'no-resurrection'] },
  },
  // Go: certified at 12 runs each, the least whose evidence decides it (40 runs of the same seeds were certified too).
  {
    folder: 'redsync',
    module: 'adapter',
    command: 'examples/third-party/redsync/adapter',
    installed: 'adapter',
    certificate: 'certificate.json',
    library: 'redsync',
    pattern: 'lock',
    seed: 1404,
    runs: 12,
    verdict: 'certified',
  },
  {
    folder: 'bsm-redislock',
    module: 'adapter',
    command: 'examples/third-party/bsm-redislock/adapter',
    installed: 'adapter',
    certificate: 'certificate.json',
    library: 'bsm/redislock',
    pattern: 'lock',
    seed: 1405,
    runs: 12,
    verdict: 'certified',
  },
  {
    folder: 'redis-rate',
    module: 'adapter',
    command: 'examples/third-party/redis-rate/adapter',
    installed: 'adapter',
    certificate: 'certificate.json',
    library: 'redis_rate',
    pattern: 'gcra',
    seed: 1406,
    runs: 12,
    verdict: 'certified',
  },
  // Java: one jar, an adapter per Redisson object.
  {
    folder: 'redisson',
    module: 'adapters.jar lock',
    command: 'java -jar examples/third-party/redisson/target/adapters.jar lock',
    installed: 'target/adapters.jar',
    certificate: 'certificate.json',
    library: 'redisson',
    pattern: 'lock',
    seed: 1407,
    runs: 12,
    verdict: 'certified',
  },
  {
    folder: 'redisson',
    module: 'adapters.jar ratelimiter',
    command: 'java -jar examples/third-party/redisson/target/adapters.jar ratelimiter',
    installed: 'target/adapters.jar',
    certificate: 'certificate.ratelimiter.json',
    library: 'redisson',
    pattern: 'gcra',
    seed: 1408,
    set: ['burst=5', 'rate=5'],
    runs: 12,
    verdict: 'certified',
  },
  // Its object keeps its permit count with no TTL: a documented non-promise (findings/README.md quotes the javadoc).
  {
    folder: 'redisson',
    module: 'adapters.jar semaphore',
    command: 'java -jar examples/third-party/redisson/target/adapters.jar semaphore',
    installed: 'target/adapters.jar',
    certificate: 'certificate.semaphore.json',
    library: 'redisson',
    pattern: 'semaphore',
    seed: 1409,
    verdict: { invariant: ['key-has-ttl'] },
  },
  // Whole seconds (its expire is an int): certified at 16 runs, the least whose evidence decides it.
  {
    folder: 'python-redis-lock',
    module: 'adapter.py',
    command:
      'examples/third-party/python-redis-lock/.venv/bin/python examples/third-party/python-redis-lock/adapter.py',
    installed: '.venv/lib',
    certificate: 'certificate.json',
    library: 'python-redis-lock',
    pattern: 'lock',
    seed: 1402,
    set: ['lease=1000', 'lease2=2000'],
    runs: 16,
    timeLimit: '8m',
    verdict: 'certified',
  },
];

/** A pin's name in the tables: its folder and module (a program's: the file its command names last, and its argument). */
export const pinName = (p: Pinned): string => `${p.folder}/${p.module}`;

/**
 * The pins re-judged on the other servers (bench/third-party-servers.ts at their full budget,
 * ../third-party-servers.full.test.ts at a few runs): one lock library per language, all certified
 * on Redis 7.0, now on a server that evicts EVAL-loaded scripts (so `all` takes script-evict).
 */
export const SERVER_PINS: readonly Pinned[] = [
  'redlock/store.mjs',
  'redsync/adapter',
  'python-redis-lock/adapter.py',
  'redisson/adapters.jar lock',
].map((name) => {
  const pin = PINNED.find((p) => pinName(p) === name && p.set === undefined) ?? PINNED.find((p) => pinName(p) === name);
  if (!pin) throw new Error(`no pin ${name} in PINNED`);
  return pin;
});

/** The servers besides the default (Redis 7.0, where the kept verdicts were earned) the pins are re-judged on. */
export const OTHER_SERVERS = ['redis-8.2', 'valkey-8.1'] as const;

/** The `--impl` certify is given for a pin: a program's command run from the repository's root, or the module. */
export const pinImpl = (p: Pinned): string =>
  p.command === undefined ? `module:examples/third-party/${p.folder}/${p.module}` : `cmd:${p.command}`;

/** A finished job's verdict as the benches' tables write it: certified, rejected (the invariants), or not certified (the findings). */
export function jobVerdict(result: {
  readonly passed: boolean;
  readonly findings: readonly string[];
  readonly invariants: readonly { readonly invariant: string; readonly violations: readonly unknown[] }[];
}): string {
  const violated = result.invariants.filter((s) => s.violations.length > 0).map((s) => s.invariant);
  if (result.passed) return 'certified';
  return violated.length > 0
    ? `rejected (${violated.join(', ')})`
    : `not certified (${result.findings.map((f) => f.split(':')[0]).join(', ')})`;
}
