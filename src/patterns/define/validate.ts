/**
 * A pattern spec checked once, where it enters (fast-check's habit with its option bags): every
 * problem is one line naming the member (`operations.claim.lease`) and what to write instead, so a
 * newcomer's first mistake costs a sentence, not a stack trace from inside the checker.
 */
import { PATTERN_API_VERSION, type ArgSpec, type PatternSpec } from './spec.ts';

/** A pattern a team wrote that cannot be used as written: `member` is the path inside the spec. */
export class PatternError extends TypeError {
  override readonly name = 'PatternError';
  constructor(
    readonly member: string,
    readonly problem: string,
  ) {
    super(`${member}: ${problem}`);
  }
}

const NAME = /^[a-z][a-z0-9-]{0,39}$/;
const OP = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
const ARG_KINDS = new Set(['holder', 'lease', 'integer', 'oneOf', 'custom']);
const ARG_TYPES = new Set(['string', 'integer>=0', 'integer>=1']);
const GROUP_FUNCTIONS = ['session', 'clockRefusal', 'masters', 'classify'] as const;
const MODEL_OPTIONAL = [
  'leases',
  'firstLease',
  'expire',
  'matches',
  'kind',
  'describe',
  'describeInput',
  'describeOutput',
  'hash',
] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (member: string, problem: string): never => {
  throw new PatternError(member, problem);
};

function checkArg(where: string, spec: unknown): ArgSpec {
  const a = spec as Partial<ArgSpec> | undefined;
  if (
    !isObject(a) ||
    !ARG_KINDS.has(a.kind as string) ||
    typeof a.draw !== 'function' ||
    !ARG_TYPES.has(a.type as string)
  ) {
    fail(
      where,
      'is not a way to draw an argument: write arg.holder(), arg.lease(), arg.integer({ min, max }), arg.oneOf([...]) or arg.custom(type, draw)',
    );
  }
  return a as ArgSpec;
}

function checkLease(where: string, lease: unknown, args: Readonly<Record<string, ArgSpec>>): void {
  if (lease === undefined) return;
  if (typeof lease === 'string') {
    if (!Object.hasOwn(args, lease))
      fail(where, `names '${lease}', which is not one of its arguments (${Object.keys(args).join(', ') || 'none'})`);
    const max = args[lease].max;
    if (args[lease].type === 'string') fail(where, `names '${lease}', a string argument: a lease is a number of ms`);
    if (max === undefined || !Number.isFinite(max))
      fail(
        where,
        `'${lease}' has no bound: draw it with arg.lease() or arg.integer({ min, max }) so the harness knows how long a lease can last`,
      );
    return;
  }
  if (!isObject(lease) || typeof lease.ms !== 'function')
    fail(where, "is neither an argument's name nor { ms(input), maxMs }");
  const maxMs = (lease as { maxMs?: unknown }).maxMs;
  if (typeof maxMs !== 'number' || !Number.isFinite(maxMs) || maxMs <= 0)
    fail(`${where}.maxMs`, 'a lease declared without a bound: give the longest it can last, in ms');
}

function checkOperations(spec: PatternSpec): boolean {
  if (!isObject(spec.operations) || Object.keys(spec.operations).length === 0)
    fail('operations', 'needs at least one operation: { name: { args: { ... } } }');
  let leases = false;
  for (const [op, operation] of Object.entries(spec.operations)) {
    const where = `operations.${op}`;
    if (!OP.test(op)) fail(where, 'an operation is named by a letter then letters, digits or _ (at most 40)');
    if (!isObject(operation)) fail(where, 'is not an object: { args: { ... } }');
    if (!isObject(operation.args))
      fail(`${where}.args`, 'is missing: list its arguments ({} for none), each drawn by an arg.* helper');
    for (const [name, a] of Object.entries(operation.args)) {
      if (name === 'op')
        fail(`${where}.args.op`, "'op' is the operation's name in every input: call the argument something else");
      checkArg(`${where}.args.${name}`, a);
    }
    checkLease(`${where}.lease`, operation.lease, operation.args);
    leases ||= operation.lease !== undefined;
    for (const text of ['answer', 'script', 'method'] as const) {
      if (operation[text] !== undefined && (typeof operation[text] !== 'string' || operation[text] === ''))
        fail(`${where}.${text}`, 'must be a non-empty string');
    }
    if (
      operation.weight !== undefined &&
      !(typeof operation.weight === 'number' && operation.weight > 0 && Number.isFinite(operation.weight))
    )
      fail(`${where}.weight`, 'must be a number > 0');
  }
  return leases;
}

function checkModel(spec: PatternSpec, leases: boolean): void {
  const model = spec.model as unknown;
  if (!isObject(model)) return fail('model', 'is missing: { init(), step(state, input, id) }');
  for (const fn of ['init', 'step'] as const)
    if (typeof model[fn] !== 'function') fail(`model.${fn}`, 'must be a function');
  for (const fn of MODEL_OPTIONAL)
    if (model[fn] !== undefined && typeof model[fn] !== 'function')
      fail(`model.${fn}`, 'must be a function when given');
  if (leases && (model.leases === undefined || model.expire === undefined)) {
    fail(
      model.leases === undefined ? 'model.leases' : 'model.expire',
      'is needed: an operation declares a lease, so the model must say which leases a state holds (leases) and what is left when one runs out (expire)',
    );
  }
  if (!leases && (model.leases !== undefined || model.expire !== undefined))
    fail('model.leases', 'is given but no operation declares a lease: add `lease` to the operations that set one');
}

function checkInvariants(spec: PatternSpec): void {
  if (spec.invariants === undefined) {
    if (spec.classifyPriority !== undefined)
      fail('classifyPriority', 'names invariants, and the pattern declares none');
    return;
  }
  if (!isObject(spec.invariants))
    fail('invariants', 'must be an object: { name: { witnesses: [...], broken(stuck) } }');
  const ops = Object.keys(spec.operations);
  for (const [name, inv] of Object.entries(spec.invariants)) {
    const where = `invariants.${name}`;
    if (!NAME.test(name)) fail(where, 'an invariant is named like a pattern: [a-z][a-z0-9-]*');
    if (name === 'model-conformance')
      fail(where, 'model-conformance is always checked: name your invariant for what it protects');
    if (!isObject(inv) || !Array.isArray(inv.witnesses) || inv.witnesses.length === 0)
      fail(`${where}.witnesses`, 'list the operations whose answers show it broken');
    for (const op of inv.witnesses as unknown[])
      if (typeof op !== 'string' || !ops.includes(op))
        fail(`${where}.witnesses`, `names '${String(op)}', not an operation (${ops.join(', ')})`);
    if (typeof inv.broken !== 'function' && spec.classify === undefined)
      fail(
        `${where}.broken`,
        'must be a function: (stuck) => a sentence when this invariant is broken, else undefined',
      );
  }
  if (spec.classifyPriority !== undefined) {
    const names = Object.keys(spec.invariants);
    if (!Array.isArray(spec.classifyPriority)) fail('classifyPriority', 'must be a list of invariant names');
    for (const name of spec.classifyPriority as unknown[])
      if (typeof name !== 'string' || !names.includes(name))
        fail('classifyPriority', `names '${String(name)}', not an invariant (${names.join(', ')})`);
  }
}

function checkGroups(spec: PatternSpec): void {
  const ops = Object.keys(spec.operations);
  for (const fn of GROUP_FUNCTIONS)
    if (spec[fn] !== undefined && typeof spec[fn] !== 'function') fail(fn, 'must be a function when given');
  if (spec.scripts !== undefined && (typeof spec.scripts !== 'string' || spec.scripts === ''))
    fail('scripts', "must be a folder, relative to the pattern file ('lua')");
  if (spec.reference !== undefined && (!isObject(spec.reference) || typeof spec.reference.open !== 'function'))
    fail('reference.open', 'must be a function (redis, options) => the reference subject');
  const more = spec.reference?.scripts;
  if (more !== undefined && (!Array.isArray(more) || more.some((name) => typeof name !== 'string' || name === '')))
    fail('reference.scripts', 'must be a list of script names (DIR/<name>.lua)');
  if (spec.key !== undefined && typeof spec.key !== 'function')
    fail('key', 'must be a function (namespace, logicalKey) => the Redis key');
  if (spec.races !== undefined && (!Array.isArray(spec.races) || spec.races.some((r) => typeof r?.draw !== 'function')))
    fail('races', 'must be a list of races, each with draw(ctx)');
  for (const group of ['levels', 'duplicates', 'givesBack'] as const) {
    const byOp = spec[group];
    if (byOp === undefined) continue;
    if (!isObject(byOp)) fail(group, 'must be an object by operation');
    for (const op of Object.keys(byOp))
      if (!ops.includes(op)) fail(`${group}.${op}`, `is not an operation (${ops.join(', ')})`);
  }
  if (spec.settings !== undefined) {
    if (!isObject(spec.settings)) fail('settings', 'must be an object: { name: { description, min, max, default } }');
    for (const [name, s] of Object.entries(spec.settings)) {
      const ok =
        isObject(s) &&
        typeof s.description === 'string' &&
        [s.min, s.max, s.default].every(Number.isSafeInteger) &&
        s.min <= s.default &&
        s.default <= s.max;
      if (!ok) fail(`settings.${name}`, 'needs a description and whole numbers min <= default <= max');
    }
  }
}

/** The spec, checked: a PatternError for its first problem. */
export function validatePatternSpec(spec: unknown): PatternSpec {
  if (!isObject(spec)) fail('pattern', 'is not an object made by definePattern({...})');
  const s = spec as unknown as PatternSpec;
  if (s.apiVersion !== PATTERN_API_VERSION)
    fail(
      'apiVersion',
      `this chaoslua reads pattern API version ${PATTERN_API_VERSION}, the file says ${JSON.stringify(s.apiVersion)}: use definePattern from this chaoslua`,
    );
  if (typeof s.name !== 'string' || !NAME.test(s.name))
    fail('name', `must be a short lowercase name ([a-z][a-z0-9-]*), got ${JSON.stringify(s.name)}`);
  const leases = checkOperations(s);
  checkModel(s, leases);
  checkInvariants(s);
  checkGroups(s);
  return s;
}
