// A team's pattern spec is checked once where it enters: every mistake one PatternError naming the
// member at fault and what to write, before any cluster starts. Each case breaks one member of a
// spec that is otherwise valid (the valid one passes, so each refusal is the broken member's).
import { describe, expect, it } from 'vitest';
import { arg, definePattern, PatternError } from '../../../../src/pattern.ts';
import { compilePattern } from '../../../../src/patterns/define/compile.ts';
import { smokeCheck } from '../../../../src/patterns/define/smoke.ts';

type Spec = Parameters<typeof definePattern>[0];

/** A flag whose holder takes it with a lease: the smallest spec with every core member. */
const valid = (): Spec => ({
  name: 'flag',
  operations: {
    take: { args: { who: arg.holder(), ms: arg.lease() }, lease: 'ms' },
    drop: { args: { who: arg.holder() } },
  },
  model: {
    init: () => ({ kind: 'free' }),
    step: (state: any, input: any, id: number) => {
      if (input.op === 'take')
        return state.kind === 'free'
          ? { state: { kind: 'taken', who: input.who, tag: id }, output: 1 }
          : { state, output: 0 };
      return state.kind === 'taken' && state.who === input.who
        ? { state: { kind: 'free' }, output: 1 }
        : { state, output: 0 };
    },
    leases: (state: any) => (state.kind === 'taken' ? [state.tag] : []),
    expire: (state: any, tag: number) => (state.tag === tag ? { kind: 'free' } : state),
  },
  invariants: {
    'one-taker': {
      witnesses: ['take'],
      broken: (s: any) => (s.state.kind === 'taken' ? `${s.phrase} took a taken flag` : undefined),
    },
  },
});

const refusal = (spec: unknown): PatternError => {
  try {
    smokeCheck(compilePattern(spec));
  } catch (error) {
    expect(error).toBeInstanceOf(PatternError);
    return error as PatternError;
  }
  throw new Error('the spec was accepted');
};

const withApi = (spec: Spec) => ({ ...spec, apiVersion: 1 });

describe('a pattern spec', () => {
  it('is accepted whole, and compiles into a pattern with model-conformance after its invariants', () => {
    const pattern = compilePattern(definePattern(valid()));
    smokeCheck(pattern);
    expect(pattern.invariants).toEqual(['one-taker', 'model-conformance']);
    expect(Object.keys(pattern.settings ?? {})).toEqual(['lease', 'lease2']);
    expect(pattern.operations.take).toEqual({
      args: { who: 'string', ms: 'integer>=1' },
      method: 'take',
      answer: 'as the model prescribes',
    });
    expect(pattern.races?.map((r) => r.name)).toEqual(["drop at the end of take's lease"]);
  });

  it.each([
    [
      'an operation without a way to draw its arguments',
      (s: any) => (s.operations.take.args.who = 'c0a0'),
      /^operations\.take\.args\.who: is not a way to draw an argument/,
    ],
    [
      'a lease naming no argument',
      (s: any) => (s.operations.take.lease = 'ttl'),
      /^operations\.take\.lease: names 'ttl', which is not one of its arguments/,
    ],
    [
      'a lease declared without a bound',
      (s: any) => (s.operations.take.lease = { ms: () => 100 }),
      /^operations\.take\.lease\.maxMs: a lease declared without a bound/,
    ],
    [
      'a lease on an unbounded argument',
      (s: any) => (s.operations.take.args.ms = arg.custom('integer>=1', () => null as any)),
      /^operations\.take\.lease: 'ms' has no bound/,
    ],
    [
      'an invariant naming an unknown operation',
      (s: any) => (s.invariants['one-taker'].witnesses = ['tak']),
      /^invariants\.one-taker\.witnesses: names 'tak', not an operation \(take, drop\)/,
    ],
    [
      'an invariant without broken',
      (s: any) => delete s.invariants['one-taker'].broken,
      /^invariants\.one-taker\.broken: must be a function/,
    ],
    [
      'leases without expire',
      (s: any) => delete s.model.expire,
      /^model\.expire: is needed: an operation declares a lease/,
    ],
    ['no model step', (s: any) => delete s.model.step, /^model\.step: must be a function/],
    ['no operations', (s: any) => (s.operations = {}), /^operations: needs at least one operation/],
    ['a name with capitals', (s: any) => (s.name = 'Flag'), /^name: must be a short lowercase name/],
    ['levels for an unknown operation', (s: any) => (s.levels = { grab: [] }), /^levels\.grab: is not an operation/],
    [
      'a reference script without a name',
      (s: any) => (s.reference = { open: async () => undefined, scripts: [''] }),
      /^reference\.scripts: must be a list of script names/,
    ],
    [
      'a classify priority naming no invariant',
      (s: any) => (s.classifyPriority = ['one-holder']),
      /^classifyPriority: names 'one-holder', not an invariant \(one-taker\)/,
    ],
  ])('refuses %s, naming the member', (_, breakIt, message) => {
    const spec = withApi(valid());
    breakIt(spec);
    expect(refusal(spec).message).toMatch(message);
  });

  it('refuses another API version in one line', () => {
    expect(refusal({ ...valid(), apiVersion: 2 }).message).toMatch(
      /^apiVersion: this chaoslua reads pattern API version 1, the file says 2/,
    );
  });

  it.each([
    [
      'a model that throws',
      (s: any) =>
        (s.model.step = () => {
          throw new Error('boom');
        }),
      /^model\.step: threw on (take|drop)\(.*\): boom$/,
    ],
    [
      'a step that returns nothing',
      (s: any) => (s.model.step = () => undefined),
      /^model\.step: returned nothing on (take|drop)\(/,
    ],
    [
      'a step answering undefined',
      (s: any) => (s.model.step = (state: unknown) => ({ state, output: undefined })),
      /^model\.step: answered undefined on .*: a nil reply is null/,
    ],
    [
      'an init that throws',
      (s: any) =>
        (s.model.init = () => {
          throw new Error('no state');
        }),
      /^model\.init: threw making the initial state: no state/,
    ],
    [
      'a draw that fails',
      (s: any) =>
        (s.operations.drop.args.who = arg.custom('string', () => {
          throw new Error('no arbitrary');
        })),
      /^session: drawing a session failed: no arbitrary/,
    ],
  ])('dry-runs the model before any cluster: %s is named', (_, breakIt, message) => {
    const spec = withApi(valid());
    breakIt(spec);
    expect(refusal(spec).message).toMatch(message);
  });
});
