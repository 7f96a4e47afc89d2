import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster as IORedisCluster } from 'ioredis';
import type { LocalCluster } from '../../../src/cluster/local.ts';
import { sharedCluster } from '../../support/shared-cluster.ts';
import { initialCandidates, leaseWindows, observeStep, type Candidate, type Model } from '../../../src/model/index.ts';
import {
  idempotency,
  lock,
  ratelimit,
  type IdempotencyInput,
  type LockInput,
  type RateLimitInput,
} from '../../../src/patterns/models.ts';
import { IDEMPOTENCY_FUNCTIONS, IDEMPOTENCY_LIBRARY_PATH } from '../../../lua/build-library.ts';
import {
  hitOn,
  idempotencyInput,
  idempotencyInvocation,
  keyIndex,
  KEYS_PER_RUN,
  lockInput,
  lockInvocation,
  type Invocation,
} from './differential-inputs.ts';

/**
 * Sequential differential mode (DESIGN.md): one client runs a random sequence of operations and
 * waits on 2-3 keys, and every reply is compared with the reference model at once.
 *
 * Time cannot make this flaky. An operation takes effect somewhere in [sent, replied], so the lease
 * it stamps ends somewhere in [sent + ms - SLACK, replied + ms + SLACK] (src/model/uncertain.ts).
 * A wait only ever ends GUARD_MS clear of every such window, and no operation is sent while the
 * clock is within GUARD_MS of one (it waits past it first). Should an operation still overlap a
 * window (a reply slower than GUARD_MS), the tracker keeps both branches and the reply decides.
 */
const SLACK_MS = 5; // Redis's millisecond granularity, its frozen script clock, clock rate differences
const GUARD_MS = 60;

const now = () => performance.now();
const luaSource = (path: string) => readFileSync(new URL(`../../../lua/${path}`, import.meta.url), 'utf8');

// ---- How an input reaches Redis -------------------------------------------------------------

/** One way of running a named script on a key: EVALSHA of the file, or FCALL of the library. */
interface CallPath {
  readonly name: string;
  call(key: string, invocation: Invocation): Promise<unknown>;
}

/** EVALSHA with the NOSCRIPT fallback a promoted replica or a flush needs: on a cold node, EVAL loads and runs it. */
class EvalshaPath implements CallPath {
  noscriptFallbacks = 0;
  private readonly scripts: Map<string, { source: string; sha: string }>;

  constructor(
    readonly name: string,
    private readonly client: IORedisCluster,
    sources: Record<string, string>,
  ) {
    this.scripts = new Map(
      Object.entries(sources).map(([script, source]) => [
        script,
        { source, sha: createHash('sha1').update(source).digest('hex') },
      ]),
    );
  }

  async call(key: string, { script, args }: Invocation): Promise<unknown> {
    const loaded = this.scripts.get(script);
    if (!loaded) throw new Error(`${this.name}: no script ${script}`);
    try {
      return await this.client.evalsha(loaded.sha, 1, key, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      this.noscriptFallbacks += 1;
      return this.client.eval(loaded.source, 1, key, ...args);
    }
  }
}

class FcallPath implements CallPath {
  readonly name = 'FCALL of lua/idempotency/library.lua';
  constructor(private readonly client: IORedisCluster) {}

  call(key: string, { script, args }: Invocation): Promise<unknown> {
    const fn = IDEMPOTENCY_FUNCTIONS[script as keyof typeof IDEMPOTENCY_FUNCTIONS];
    if (!fn) throw new Error(`${this.name}: no function for ${script}`);
    return this.client.fcall(fn, 1, key, ...args);
  }
}

// ---- The fast-check model and commands ------------------------------------------------------

/** What one property run knows: candidate states per key, and the next operation id. */
class Tracker<S> {
  readonly keys: Candidate<S>[][];
  nextId = 1;

  constructor(model: Model<S, any, any>) {
    this.keys = Array.from({ length: KEYS_PER_RUN }, () => initialCandidates(model));
  }

  windows() {
    return this.keys.flatMap((candidates) => leaseWindows(candidates));
  }

  /** The first instant at or after `t` that is GUARD_MS clear of every lease window. */
  clearInstant(t: number): number {
    for (;;) {
      const blocking = this.windows().find((w) => t > w.from - GUARD_MS && t < w.to + GUARD_MS);
      if (!blocking) return t;
      t = blocking.to + GUARD_MS;
    }
  }
}

interface Real {
  readonly keys: readonly string[];
  readonly path: CallPath;
  /** How often each kind of answer came up (a tour asserts it reached all of them). */
  readonly coverage: Map<string, number>;
}

function count(coverage: Map<string, number>, label: string): void {
  coverage.set(label, (coverage.get(label) ?? 0) + 1);
}

type Cmd<S> = fc.AsyncCommand<Tracker<S>, Real>;

class OpCommand<S, I, O> implements Cmd<S> {
  constructor(
    private readonly model: Model<S, I, O>,
    private readonly invocation: (input: I) => Invocation,
    readonly keyIndex: number,
    readonly input: I,
  ) {}

  check(): boolean {
    return true;
  }

  async run(tracker: Tracker<S>, real: Real): Promise<void> {
    const clear = tracker.clearInstant(now());
    if (clear > now()) await sleep(clear - now());
    const id = tracker.nextId++;
    const before = tracker.keys[this.keyIndex];
    const sentAt = now();
    const observed = await real.path.call(real.keys[this.keyIndex], this.invocation(this.input));
    const repliedAt = now();
    const { candidates, expected } = observeStep(this.model, before, this.input, id, {
      sentAt,
      repliedAt,
      observed,
      slackMs: SLACK_MS,
    });
    if (candidates.length === 0) {
      const allowed = [...new Set(expected.map((o) => this.model.describeOutput(o)))].join(' or ');
      const states = before.map((c) => this.model.describeState(c.state)).join(' or ');
      throw new Error(
        `op ${id} ${this.toString()} via ${real.path.name}: Redis answered ${JSON.stringify(observed)}, the model allows ${allowed} (key was ${states})`,
      );
    }
    tracker.keys[this.keyIndex] = candidates;
    const op = (this.input as { op?: string }).op ?? '?';
    const matched = expected.find((o) => this.model.outputMatches(o, observed)) as O;
    const answer = this.model.describeOutput(matched).split(',')[0];
    count(real.coverage, `${op} -> ${answer}`);
    if (before.some((c) => c.lease !== null && sentAt > c.lease.to)) count(real.coverage, 'after expiry');
  }

  toString(): string {
    return `k${this.keyIndex}.${this.model.describeInput(this.input)}`;
  }
}

class WaitCommand<S> implements Cmd<S> {
  constructor(readonly ms: number) {}

  check(): boolean {
    return true;
  }

  async run(tracker: Tracker<S>): Promise<void> {
    const until = tracker.clearInstant(now() + this.ms);
    await sleep(until - now());
  }

  toString(): string {
    return `wait(${this.ms}ms)`;
  }
}

// ---- Sequences ------------------------------------------------------------------------------

function commands<S, I, O>(
  model: Model<S, I, O>,
  invocation: (input: I) => Invocation,
  input: fc.Arbitrary<[number, I]>,
  waitMs: fc.Arbitrary<number>,
  maxCommands: number,
): fc.Arbitrary<Iterable<Cmd<S>>> {
  const op = input.map(([key, i]): Cmd<S> => new OpCommand(model, invocation, key, i));
  const wait = waitMs.map((ms): Cmd<S> => new WaitCommand<S>(ms));
  return fc.commands([fc.oneof({ weight: 6, arbitrary: op }, { weight: 1, arbitrary: wait })], {
    size: 'medium',
    maxCommands,
  });
}

/** Run one sequence on fresh keys: a new namespace, each key its own hash tag (spread over masters). */
async function runSequence<S>(
  model: Model<S, any, any>,
  sequence: Iterable<Cmd<S>>,
  path: CallPath,
  coverage: Map<string, number>,
) {
  const run = randomBytes(5).toString('hex');
  const keys = Array.from({ length: KEYS_PER_RUN }, (_, i) => `chaoslua:diff:{${run}:${i}}`);
  await fc.asyncModelRun(() => ({ model: new Tracker(model), real: { keys, path, coverage } }), sequence);
}

/** Random sequences over `path`; resolves to fast-check's report (not thrown). */
function differential<S>(
  model: Model<S, any, any>,
  cmds: fc.Arbitrary<Iterable<Cmd<S>>>,
  path: CallPath,
  params: fc.Parameters<[Iterable<Cmd<S>>]>,
) {
  const coverage = new Map<string, number>();
  return fc.check(
    fc.asyncProperty(cmds, (sequence) => runSequence(model, sequence, path, coverage)),
    params,
  );
}

function expectPass<T>(report: fc.RunDetails<T>): void {
  expect(report.failed, fc.defaultReportMessage(report) ?? '').toBe(false);
}

/**
 * A fixed sequence that reaches every answer of the scripts, expiry included, so that a pass never
 * rests on random runs that happened to stay shallow. Its answers are still the model's, checked
 * op by op; the test asserts only that every kind of answer came up.
 */
async function tour<S, I>(
  model: Model<S, I, any>,
  invocation: (input: I) => Invocation,
  path: CallPath,
  steps: readonly ([number, I] | number)[],
): Promise<string[]> {
  const coverage = new Map<string, number>();
  const sequence = steps.map(
    (s): Cmd<S> => (typeof s === 'number' ? new WaitCommand<S>(s) : new OpCommand(model, invocation, s[0], s[1])),
  );
  await runSequence(model, sequence, path, coverage);
  return [...coverage.keys()].sort();
}

const reg = (owner: string, fingerprint: string, leaseMs: number): IdempotencyInput => ({
  op: 'register',
  fingerprint,
  owner,
  leaseMs,
});
const complete = (owner: string, status: string, body: string, ttlMs: number): IdempotencyInput => ({
  op: 'complete',
  owner,
  status,
  body,
  ttlMs,
});
const release = (owner: string): IdempotencyInput => ({ op: 'release', owner });
const renew = (owner: string, leaseMs: number): IdempotencyInput => ({ op: 'renew', owner, leaseMs });

// Leases that must not run out are long (1 s); the two that must are short and followed by a wait.
const idempotencyTour: ([number, IdempotencyInput] | number)[] = [
  [0, reg('o1', 'fpA', 1000)],
  [0, reg('o2', 'fpB', 1000)], // hit pending: the second attempt is told to wait
  [0, complete('o2', '500', 'x', 1000)], // not the owner
  [0, renew('o2', 1000)],
  [0, release('o2')],
  [0, renew('o1', 1000)],
  [0, complete('o1', '201', '{"id":7}', 1000)],
  [0, reg('o2', 'fpB', 1000)], // hit completed: the stored response
  [0, release('o1')], // completed keys are never released (no resurrection)
  [0, renew('o1', 1000)],
  [0, complete('o1', '409', '', 300)], // the same owner re-completes, with a short TTL
  400,
  [0, complete('o1', '200', 'late', 1000)], // expired: absent
  [0, reg('o1', 'fpA', 1000)],
  [0, release('o1')],
  [1, reg('o3', 'fpA', 150)],
  250,
  [1, complete('o3', '200', 'stale', 1000)], // its lease ran out
  [1, reg('o2', 'fpA', 1000)],
  [1, renew('o3', 1000)], // stale owner
  [1, release('o2')],
  [2, release('o1')],
];
const IDEMPOTENCY_ANSWERS = [
  'after expiry',
  'complete -> 0',
  'complete -> 1',
  'register -> fresh',
  'register -> hit(completed',
  'register -> hit(pending',
  'release -> 0',
  'release -> 1',
  'renew -> 0',
  'renew -> 1',
];

// ---- The suite ------------------------------------------------------------------------------

/** How deep the random sequences go: npm test's few runs, or test:full's many. */
export interface DifferentialDepth {
  readonly idempotencyRuns: number;
  readonly lockRuns: number;
  readonly ratelimitRuns: number;
  /** Also prove the suite can fail (a mutant script caught): once is enough, in npm test. */
  readonly canFail: boolean;
}

/** The differential suite, on the shared cluster: each fixed tour, then `depth` random sequences. */
export function differentialSuite(depth: DifferentialDepth): void {
  let cluster: LocalCluster;
  let client: IORedisCluster;
  beforeAll(async () => {
    cluster = await sharedCluster();
    client = cluster.connect();
  });
  afterAll(async () => {
    client?.disconnect();
  });

  const idempotencySources = () =>
    Object.fromEntries(Object.keys(IDEMPOTENCY_FUNCTIONS).map((s) => [s, luaSource(`idempotency/${s}.lua`)]));
  const idempotencyCommands = commands(
    idempotency,
    idempotencyInvocation,
    fc.tuple(keyIndex, idempotencyInput),
    fc.integer({ min: 20, max: 700 }),
    50,
  );

  describe('differential: idempotency scripts against the model', () => {
    it('EVALSHA of the four scripts (cold caches, so the NOSCRIPT fallback runs) agrees with the model', async () => {
      await cluster.scriptFlush();
      const path = new EvalshaPath('EVALSHA of lua/idempotency/*.lua', client, idempotencySources());
      expect(await tour(idempotency, idempotencyInvocation, path, idempotencyTour)).toEqual(IDEMPOTENCY_ANSWERS);
      expect(path.noscriptFallbacks).toBeGreaterThan(0);
      expectPass(await differential(idempotency, idempotencyCommands, path, { numRuns: depth.idempotencyRuns }));
    });

    it('FCALL of the library loaded on every master agrees with the model', async () => {
      const library = readFileSync(IDEMPOTENCY_LIBRARY_PATH, 'utf8');
      const masters = (await cluster.topology()).nodes.filter((n) => n.role === 'master');
      expect(masters.length).toBeGreaterThan(1);
      for (const master of masters) await cluster.command(master.node.index, 'FUNCTION', 'LOAD', 'REPLACE', library);
      const path = new FcallPath(client);
      expect(await tour(idempotency, idempotencyInvocation, path, idempotencyTour)).toEqual(IDEMPOTENCY_ANSWERS);
      expectPass(await differential(idempotency, idempotencyCommands, path, { numRuns: depth.idempotencyRuns }));
    });

    it.runIf(depth.canFail)('can fail: a complete without the owner check is caught', async () => {
      const sources = idempotencySources();
      const ownerCheck = /^if redis\.call\('HGET', KEYS\[1\], 'owner'\) ~= ARGV\[1\] then\n {2}return 0\nend\n/m;
      expect(sources.complete).toMatch(ownerCheck);
      const mutant = new EvalshaPath('EVALSHA of a mutant complete.lua', client, {
        ...sources,
        complete: sources.complete.replace(ownerCheck, ''),
      });
      const report = await differential(idempotency, idempotencyCommands, mutant, { numRuns: 20, endOnFailure: true });
      expect(report.failed).toBe(true);
      expect(String(report.errorInstance)).toMatch(/complete\(owner=/);
    });
  });

  describe('differential: lock and rate limiter scripts against their models', () => {
    it('lock: acquire, remove_if_matches and extend_if_matches agree with the model', async () => {
      const sources = Object.fromEntries(
        ['acquire', 'remove_if_matches', 'extend_if_matches'].map((s) => [s, luaSource(`lock/${s}.lua`)]),
      );
      const path = new EvalshaPath('EVALSHA of lua/lock/*.lua', client, sources);
      const acquire = (token: string, ttlMs = 1000): LockInput => ({ op: 'acquire', token, ttlMs });
      const extend = (token: string, ttlMs = 1000): LockInput => ({ op: 'extend', token, ttlMs });
      const unlock = (token: string): LockInput => ({ op: 'release', token });
      const answers = await tour(lock, lockInvocation, path, [
        [0, acquire('t1')],
        [0, acquire('t2')],
        [0, unlock('t2')],
        [0, extend('t2')],
        [0, extend('t1', 150)],
        300,
        [0, unlock('t1')],
        [0, extend('t1')],
        [0, acquire('t2')],
        [0, unlock('t2')],
      ]);
      expect(answers).toEqual([
        'acquire -> 0',
        'acquire -> 1',
        'after expiry',
        'extend -> -1',
        'extend -> 1',
        'extend -> nil',
        'release -> -1',
        'release -> 1',
        'release -> nil',
      ]);
      const cmds = commands(lock, lockInvocation, fc.tuple(keyIndex, lockInput), fc.integer({ min: 20, max: 700 }), 30);
      expectPass(await differential(lock, cmds, path, { numRuns: depth.lockRuns }));
    });

    it.each(['fixed_window', 'fixed_window_incr_first'])('ratelimit: %s.lua agrees with the model', async (variant) => {
      const path = new EvalshaPath(`EVALSHA of lua/ratelimit/${variant}.lua`, client, {
        hit: luaSource(`ratelimit/${variant}.lua`),
      });
      const invocation = (input: RateLimitInput): Invocation => ({
        script: 'hit',
        args: [input.limit, input.windowSeconds],
      });
      const answers = await tour(ratelimit, invocation, path, [
        [1, hitOn(1)],
        [1, hitOn(1)],
        [1, hitOn(1)],
        [1, hitOn(1)],
        1100,
        [1, hitOn(1)],
      ]);
      expect(answers).toEqual(['after expiry', 'hit -> 0 (blocked)', 'hit -> 1 (allowed)']);
      const cmds = commands(
        ratelimit,
        invocation,
        keyIndex.map((k): [number, RateLimitInput] => [k, hitOn(k)]),
        fc.integer({ min: 100, max: 1300 }),
        25,
      );
      expectPass(await differential(ratelimit, cmds, path, { numRuns: depth.ratelimitRuns }));
    });
  });
}
