// Capabilities (src/patterns/capabilities.ts) and what follows from them: declarations checked with
// the mistake named, invariants the declared operations and levels cannot witness reported
// not-applicable (never passed), evidence asking only what those operations reach, the generator
// drawing only them, and the subject recording answers at their level with holder handles.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareWithBaseline } from '../../../src/certify/baseline.ts';
import { judgeEvidence, requiredTransitions, tallyOperations } from '../../../src/certify/evidence.ts';
import { scheduleArbitrary } from '../../../src/generator/index.ts';
import {
  applicability,
  capabilitiesJson,
  exactCapabilities,
  parseCapabilities,
  witnessesAt,
} from '../../../src/patterns/capabilities.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import type { Certificate } from '../../../src/report/certificate.ts';
import { junitXml } from '../../../src/report/junit.ts';
import { DeclaredAnswers, HandleTable } from '../../../src/impl/declared-answers.ts';
import { parseKeyMapping } from '../../../src/patterns/key-mapping.ts';
import { moduleDeclarations } from '../../../src/impl/module-subject.ts';

const lock = PATTERNS.lock;
const notApplicable = (pattern: typeof lock | typeof PATTERNS.idempotency, declared: unknown) =>
  applicability(pattern, parseCapabilities(pattern, declared, 'caps'))
    .filter((a) => a.notApplicable)
    .map((a) => a.invariant);

describe('declared capabilities', () => {
  it('are checked, the mistake named', () => {
    expect(() => parseCapabilities(lock, { acquire: 'boolean', unlock: 'boolean' }, 'caps')).toThrow(
      /^caps: unknown operation unlock \(a lock implementation has acquire, release, extend\)$/,
    );
    expect(() => parseCapabilities(lock, { release: 'maybe' }, 'caps')).toThrow(
      /^caps\.release: unknown level "maybe" \(release answers at exact, boolean, void\)$/,
    );
    expect(() => parseCapabilities(lock, { release: { level: 'boolean', handle: true } }, 'caps')).toThrow(
      /release cannot hand out a holder handle \(only acquire can\)/,
    );
    expect(() => parseCapabilities(lock, {}, 'caps')).toThrow(/supports no operation/);
    expect(() => parseCapabilities(lock, ['acquire'], 'caps')).toThrow(/expected an object/);
    expect(() =>
      parseCapabilities(PATTERNS.idempotency, { register: { level: 'outcome', handle: true } }, 'caps'),
    ).toThrow(/no idempotency operation can/);
  });

  it("keep the pattern's order and say which operation hands out a handle", () => {
    const caps = parseCapabilities(lock, { release: 'void', acquire: { level: 'boolean', handle: true } }, 'caps');
    expect(Object.keys(caps.operations)).toEqual(['acquire', 'release']);
    expect(capabilitiesJson(caps)).toEqual({ acquire: 'boolean+handle', release: 'void' });
    expect(caps.declared).toBe(true);
    expect(exactCapabilities(lock).declared).toBe(false);
  });
});

describe('what the declared operations and levels can witness', () => {
  it('every invariant, when everything is declared exactly or at boolean', () => {
    expect(applicability(lock, exactCapabilities(lock)).every((a) => a.notApplicable === undefined)).toBe(true);
    expect(notApplicable(lock, { acquire: 'boolean', release: 'boolean', extend: 'boolean' })).toEqual([]);
    expect(
      notApplicable(PATTERNS.idempotency, {
        register: 'outcome',
        complete: 'boolean',
        release: 'boolean',
        renew: 'boolean',
      }),
    ).toEqual([]);
  });

  it('no-stale-release is not applicable to a lock whose release answers void and which has no extend', () => {
    const result = applicability(lock, parseCapabilities(lock, { acquire: 'boolean', release: 'void' }, 'caps'));
    expect(result.filter((a) => a.notApplicable).map((a) => a.invariant)).toEqual(['no-stale-release']);
    expect(result.find((a) => a.invariant === 'no-stale-release')!.notApplicable).toBe(
      'not-applicable: only release, extend can witness it, and the implementation declares release at level void, extend not supported',
    );
  });

  it('an idempotency store with only register and complete cannot witness what only release and renew show; the rest still can', () => {
    expect(notApplicable(PATTERNS.idempotency, { register: 'outcome', complete: 'void' })).toEqual([
      'no-stale-overwrite',
    ]);
    expect(notApplicable(PATTERNS.idempotency, { register: 'outcome', complete: 'boolean' })).toEqual([]);
  });

  it('a coarse level never witnesses more than the operation does exactly', () => {
    for (const pattern of Object.values(PATTERNS)) {
      for (const [op, levels] of Object.entries(pattern.levels)) {
        for (const level of levels)
          expect(
            witnessesAt(pattern, op, level.name).every((inv) => witnessesAt(pattern, op, 'exact').includes(inv)),
            `${pattern.name} ${op} ${level.name}`,
          ).toBe(true);
      }
    }
  });
});

describe('evidence and the generator follow the supported operations', () => {
  const noExtend = parseCapabilities(lock, { acquire: 'boolean', release: 'boolean' }, 'caps');

  it('asks no transition an unsupported operation makes, and tallies only supported operations', () => {
    expect(requiredTransitions(PATTERNS.lock, ['lease-expiry'])).toContain('held → held by extend');
    expect(requiredTransitions(PATTERNS.lock, ['lease-expiry'], noExtend)).toEqual([
      'absent → held by acquire',
      'held → absent by release',
      'held → absent by expiry',
    ]);
    const tallies = tallyOperations(PATTERNS.lock, [], noExtend);
    expect(tallies.map((t) => t.op)).toEqual(['acquire', 'release']);
    const evidence = judgeEvidence({
      pattern: PATTERNS.lock,
      faults: [],
      runs: 4,
      operations: tallies.map((t) => ({ ...t, issued: 5, ok: 5 })),
      coverage: undefined,
      capabilities: noExtend,
    });
    expect(evidence.missing.join('\n')).not.toMatch(/extend/);
    expect(evidence.missing).toContain('transition held -> absent by release never observed');
  });

  it('draws only supported operations, and the same schedules as before when every operation is supported', () => {
    const restricted = fc.sample(scheduleArbitrary({ pattern: PATTERNS.lock, operations: ['acquire', 'release'] }), {
      numRuns: 60,
      seed: 7,
    });
    const ops = new Set(
      restricted.flatMap((s) =>
        s.clients.flat().flatMap((step) => (step.type === 'op' ? [(step.input as { op: string }).op] : [])),
      ),
    );
    expect([...ops].sort()).toEqual(['acquire', 'release']);
    const all = fc.sample(scheduleArbitrary({ pattern: PATTERNS.lock, operations: ['acquire', 'release', 'extend'] }), {
      numRuns: 20,
      seed: 7,
    });
    expect(all).toEqual(fc.sample(scheduleArbitrary({ pattern: PATTERNS.lock }), { numRuns: 20, seed: 7 }));
    expect(() => scheduleArbitrary({ pattern: PATTERNS.lock, operations: ['unlock'] })).toThrow(
      /operations must be a non-empty list of lock operations/,
    );
  });
});

describe('answers as the subject records them', () => {
  const caps = parseCapabilities(
    lock,
    { acquire: { level: 'boolean', handle: true }, release: 'boolean', extend: 'exact' },
    'caps',
  );

  it('raw at the exact level, an envelope at a coarse one; an exact answer never poses as an envelope', () => {
    const answers = new DeclaredAnswers(lock, caps);
    expect(answers.record('K', { op: 'extend', token: 't', ttlMs: 5 }, -1)).toBe(-1);
    expect(answers.record('K', { op: 'release', token: 't' }, true)).toEqual({
      level: 'boolean',
      op: 'release',
      answer: true,
    });
    expect(
      answers.record('K', { op: 'extend', token: 't', ttlMs: 5 }, { level: 'boolean', op: 'extend', answer: true }),
    ).toMatch(/^\(an answer shaped like a level envelope/);
    const none = new DeclaredAnswers(lock, exactCapabilities(lock));
    expect(none.record('K', { op: 'release', token: 't' }, null)).toBe(null);
    expect(none.passesHandle()).toBe(false);
  });

  it('keeps the handle an acquire hands out for later calls of that holder on that key only, and records it as text', () => {
    const answers = new DeclaredAnswers(lock, caps);
    const handle = { lockValue: 'r4nd0m', resource: ['K'] };
    expect(answers.record('K', { op: 'acquire', token: 't', ttlMs: 5 }, { answer: true, handle })).toEqual({
      level: 'boolean',
      op: 'acquire',
      answer: true,
      handle: "{ lockValue: 'r4nd0m', resource: [Array] }",
    });
    expect(answers.handleFor('K', { op: 'release', token: 't' })).toBe(handle);
    expect(answers.handleFor('K', { op: 'release', token: 'other' })).toBeUndefined();
    expect(answers.handleFor('K2', { op: 'release', token: 't' })).toBeUndefined();
    // A failed acquire hands out nothing: the holder keeps what it had.
    answers.record('K', { op: 'acquire', token: 't', ttlMs: 5 }, { answer: false });
    expect(answers.handleFor('K', { op: 'extend', token: 't' })).toBe(handle);
  });
});

describe('calls of a holder, with its handle', () => {
  const caps = parseCapabilities(lock, { acquire: { level: 'boolean', handle: true }, release: 'boolean' }, 'caps');
  const acquire = { op: 'acquire', token: 't', ttlMs: 5 };
  const release = { op: 'release', token: 't' };

  it('receive the handle, shared by every client of the implementation', async () => {
    const table = new HandleTable();
    await new DeclaredAnswers(lock, caps, table).call('K', acquire, async () => ({ answer: true, handle: 'v1' }));
    const seen: unknown[] = [];
    const other = new DeclaredAnswers(lock, caps, table);
    expect(await other.call('K', release, async (handle) => (seen.push(handle), true))).toEqual({
      level: 'boolean',
      op: 'release',
      answer: true,
    });
    expect(seen).toEqual(['v1']);
  });

  it('are not made while the handle is unknown (its acquire lost its answer), until an acquire hands one out again', async () => {
    const answers = new DeclaredAnswers(lock, caps);
    await expect(
      answers.call('K', acquire, async () => Promise.reject(new Error('Connection is closed.'))),
    ).rejects.toThrow('Connection is closed.');
    let called = 0;
    await expect(answers.call('K', release, async () => ++called)).rejects.toThrow(
      /^not called: the handle of holder t is unknown/,
    );
    expect(called).toBe(0);
    // Another holder is not concerned.
    expect(await answers.call('K', { op: 'release', token: 'u' }, async () => false)).toEqual({
      level: 'boolean',
      op: 'release',
      answer: false,
    });
    await answers.call('K', acquire, async () => ({ answer: true, handle: 'v2' }));
    expect(await answers.call('K', release, async (handle) => handle === 'v2')).toEqual({
      level: 'boolean',
      op: 'release',
      answer: true,
    });
  });

  it("are not made by another client while the holder's acquire is in flight: the stray call would be judged as the holder's (seed 7001, run 231)", async () => {
    const table = new HandleTable();
    let answer!: (value: unknown) => void;
    const holder = new DeclaredAnswers(lock, caps, table).call(
      'K',
      acquire,
      () => new Promise((resolve) => (answer = resolve)),
    );
    let called = 0;
    const stray = new DeclaredAnswers(lock, caps, table);
    await expect(stray.call('K', release, async () => ++called)).rejects.toThrow(
      /^not called: the handle of holder t is unknown/,
    );
    expect(called).toBe(0);
    answer({ answer: true, handle: 'v4' });
    await holder;
    expect(await stray.call('K', release, async (handle) => handle === 'v4')).toEqual({
      level: 'boolean',
      op: 'release',
      answer: true,
    });
  });

  it('are not made after an acquire answered without a handle across a closed connection: a resend may have taken the lock unseen', async () => {
    // The soak-like history of the coarse lock (seed 7001): the acquire's reply was lost, ioredis
    // resent it, the first run took the lock under a value the caller never received, the resend
    // answered false. The holder's extend, made without that value, would be judged as the holder's.
    let drops = 0;
    const answers = new DeclaredAnswers(lock, caps, new HandleTable(), () => drops);
    expect(await answers.call('K', acquire, async () => (drops++, { answer: false }))).toEqual({
      level: 'boolean',
      op: 'acquire',
      answer: false,
    });
    await expect(answers.call('K', release, async () => false)).rejects.toThrow(
      /^not called: the handle of holder t is unknown/,
    );
    // An acquire that hands out a handle makes the holder known again; no close, no loss.
    await answers.call('K', acquire, async () => ({ answer: true, handle: 'v3' }));
    expect(await answers.call('K', release, async (handle) => handle === 'v3')).toEqual({
      level: 'boolean',
      op: 'release',
      answer: true,
    });
    expect(await answers.call('K', acquire, async () => ({ answer: false }))).toEqual({
      level: 'boolean',
      op: 'acquire',
      answer: false,
    });
    expect(await answers.call('K', release, async () => false)).toEqual({
      level: 'boolean',
      op: 'release',
      answer: false,
    });
  });
});

describe('declared key mappings', () => {
  it('a prefix, or a function whose keys must contain the key handed over', () => {
    expect(parseKeyMapping({ prefix: 'mutex:' }, 'keys', 'lock').map('lock:{ns:k0}')).toEqual(['mutex:lock:{ns:k0}']);
    expect(parseKeyMapping({ prefix: 'mutex:' }, 'keys', 'lock').description).toBe('prefix "mutex:"');
    const fn = parseKeyMapping((key: string) => [`a:${key}`, `${key}:fence`], 'keys', 'lock');
    expect(fn.map('K')).toEqual(['a:K', 'K:fence']);
    expect(() => parseKeyMapping(() => 'hashed', 'keys', 'lock').map('K')).toThrow(
      /gave hashed, which does not contain the key handed over/,
    );
    expect(() => parseKeyMapping({ prefix: '' }, 'keys', 'lock')).toThrow(/non-empty prefix or suffix/);
    expect(() => parseKeyMapping({ prefx: 'm:' }, 'keys', 'lock')).toThrow(/unknown field prefx/);
  });
});

describe("a module's declarations", () => {
  const factory = () => ({});
  it('none: every operation, exactly, and the key handed over', () => {
    const declared = moduleDeclarations({ factory }, 'm.ts', PATTERNS.lock);
    expect(declared.capabilities).toEqual(exactCapabilities(lock));
    expect(declared.keys).toBeUndefined();
  });

  it('keyed by pattern; a mistake is a usage error naming the module and the export', () => {
    expect(
      moduleDeclarations({ factory, capabilities: { lock: { acquire: 'boolean' } } }, 'm.ts', PATTERNS.lock)
        .capabilities.operations,
    ).toEqual({ acquire: { level: 'boolean', handle: false } });
    expect(() => moduleDeclarations({ factory, capabilities: { acquire: 'boolean' } }, 'm.ts', PATTERNS.lock)).toThrow(
      /^--impl module:m\.ts: export capabilities declares no lock capabilities \(it names: acquire\)/,
    );
    expect(() =>
      moduleDeclarations({ factory, capabilities: { lock: { acquire: 'bool' } } }, 'm.ts', PATTERNS.lock),
    ).toThrow(/^--impl module:m\.ts: capabilities\.lock\.acquire: unknown level "bool"/);
    expect(() => moduleDeclarations({ factory, keys: () => 'elsewhere' }, 'm.ts', PATTERNS.lock)).toThrow(
      /^--impl module:m\.ts: keys: the mapping of lock:\{chaoslua:declaration-check\} gave elsewhere/,
    );
  });
});

describe('not-applicable in reports', () => {
  it('JUnit: a skipped case, neither a failure nor a pass', () => {
    const xml = junitXml(
      's',
      [
        { name: 'one-holder', passed: true },
        { name: 'no-stale-release', passed: false, skipped: 'not-applicable: release answers void' },
      ],
      1,
    );
    expect(xml).toContain('<testsuites tests="2" failures="0" skipped="1">');
    expect(xml).toContain(
      '<testcase classname="s" name="no-stale-release" time="1.000">\n      <skipped message="not-applicable: release answers void"/>\n    </testcase>',
    );
  });

  it('baseline: an invariant proved before and not applicable now is a regression', () => {
    const cert = (invariants: Certificate['invariants']): Certificate => ({
      version: 1,
      certified: true,
      pattern: 'lock',
      implementation: { spec: 'x', sha256: 'a' },
      redis: { version: '7', topology: '', cluster: 'local' },
      seed: 1,
      runs: 4,
      operations: 10,
      faults: {},
      invariants,
      findings: [],
      replicationLosses: 0,
      issuedAt: '',
      seconds: 1,
    });
    const before = cert([{ invariant: 'no-stale-release', passed: true, violations: [] }]);
    const after = cert([
      { invariant: 'no-stale-release', passed: false, notApplicable: 'not-applicable: x', violations: [] },
    ]);
    expect(compareWithBaseline(before, after).regressions).toEqual([
      'no-stale-release passed in the baseline and is not applicable now (not-applicable: x)',
    ]);
    expect(compareWithBaseline(after, after).regressions).toEqual([]);
  });
});
