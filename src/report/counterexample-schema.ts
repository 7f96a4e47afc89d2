/**
 * The shape of counterexample.json, checked field by field before `replay` uses any of it: a file
 * edited by hand or written by another version must fail with the path of the first wrong field
 * ("history.ops[3].input.owner: expected a string, got 7"), never with a TypeError inside the checker.
 */
import { isPatternName, operationsOf, patternNamed, type PatternName } from '../patterns/index.ts';
import type { ArgType } from '../patterns/types.ts';
import { checkableModels, isCheckableModel } from '../patterns/checkable.ts';

type Check = (value: unknown, at: string) => void;

export class SchemaError extends Error {
  override readonly name = 'SchemaError';
}

const show = (v: unknown) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'string'
        ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)
        : typeof v === 'object'
          ? 'an object'
          : String(v);
const fail = (at: string, expected: string, got: unknown): never => {
  throw new SchemaError(`${at}: expected ${expected}, got ${show(got)}`);
};

const str: Check = (v, at) => {
  if (typeof v !== 'string') fail(at, 'a string', v);
};
const num: Check = (v, at) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(at, 'a number', v);
};
const int =
  (min: number): Check =>
  (v, at) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) fail(at, `an integer >= ${min}`, v);
  };
const oneOf =
  (values: readonly string[]): Check =>
  (v, at) => {
    if (typeof v !== 'string' || !values.includes(v)) fail(at, `one of ${values.join(', ')}`, v);
  };
/** A flag that is only ever `true` when present. */
const yes: Check = (v, at) => {
  if (v !== true) fail(at, 'true', v);
};
const optional =
  (check: Check): Check =>
  (v, at) => {
    if (v !== undefined) check(v, at);
  };
const array =
  (item: Check): Check =>
  (v, at) => {
    if (!Array.isArray(v)) fail(at, 'an array', v);
    (v as unknown[]).forEach((x, i) => item(x, `${at}[${i}]`));
  };
const object =
  (fields: Record<string, Check>): Check =>
  (v, at) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(at, 'an object', v);
    for (const [name, check] of Object.entries(fields))
      check((v as Record<string, unknown>)[name], at ? `${at}.${name}` : name);
  };
/** An object whose `field` picks which shape the rest must have. */
const tagged =
  (field: string, shapes: Record<string, Record<string, Check>>): Check =>
  (v, at) => {
    object({ [field]: oneOf(Object.keys(shapes)) })(v, at);
    object(shapes[(v as Record<string, string>)[field]])(v, at);
  };

/** An argument of an operation, checked as its pattern declares it (src/patterns/<name>/index.ts). */
const ARG: Readonly<Record<ArgType, Check>> = { string: str, 'integer>=0': int(0), 'integer>=1': int(1) };

/**
 * A pattern's operation inputs, as the models read them: by op, each argument's check, and the
 * semantic variants the op carries (absent: the default; present: one of the choices).
 */
function inputsOf(pattern: PatternName): Record<string, Record<string, Check>> {
  const variants = Object.entries(patternNamed(pattern).variants ?? {});
  return Object.fromEntries(
    Object.entries(operationsOf(pattern)).map(([op, { args }]) => [
      op,
      {
        ...Object.fromEntries(Object.entries(args).map(([name, type]) => [name, ARG[type]])),
        ...Object.fromEntries(
          variants.filter(([, v]) => v.carriedBy.includes(op)).map(([name, v]) => [name, optional(oneOf(v.choices))]),
        ),
      },
    ]),
  );
}

const target = object({ key: int(0), role: oneOf(['master', 'replica']) });

const FAULT_STEP = tagged('kind', {
  'node-freeze': { atMs: int(0), target, ms: int(0) },
  'script-flush': { atMs: int(0) },
  'busy-script': { atMs: int(0), key: int(0), ms: int(0), burstMs: int(0), gapMs: int(0) },
  failover: { atMs: int(0), key: int(0), mode: oneOf(['default', 'force', 'takeover']) },
  toxic: {
    atMs: int(0),
    target,
    link: oneOf(['client', 'internal', 'bus']),
    toxic: oneOf(['latency', 'timeout', 'reset_peer']),
    ms: int(0),
    delayMs: optional(int(0)),
  },
  'kill-restart': { atMs: int(0), target, downMs: int(0) },
  'script-evict': { atMs: int(0), scripts: int(1) },
  'clock-jump': { atMs: int(0), target, offsetMs: num, ms: int(0), failover: optional(yes) },
  'clock-strobe': { atMs: int(0), target, offsetMs: num, periodMs: int(1), ms: int(0) },
  'clock-drift': { atMs: int(0), target, driftPpm: num, ms: int(0) },
  partition: {
    atMs: int(0),
    shape: oneOf(['one', 'majority', 'bridge', 'primaries']),
    key: int(0),
    ms: int(0),
    seed: int(0),
  },
  'command-delay': {
    atMs: int(0),
    ms: int(0),
    command: int(0),
    key: optional(int(0)),
    on: oneOf(['request', 'reply']),
    holdMs: int(0),
    pastExpiryMs: optional(int(0)),
    limit: int(1),
  },
  'reply-loss': { atMs: int(0), ms: int(0), command: int(0), key: optional(int(0)), limit: int(1) },
  'aimed-delay': {
    atMs: int(0),
    client: int(0),
    op: int(0),
    on: oneOf(['request', 'reply']),
    holdMs: int(0),
    pastExpiryMs: optional(int(0)),
    pastTouchMs: optional(int(0)),
    refuse: optional(yes),
  },
});

/** Histories `chaoslua check` read from elsewhere (register, kv) have no schedule to type their inputs: any object with an `op`. */
const anyInput = object({ op: str });

function counterexampleCheck(pattern: string): Check {
  const input = isPatternName(pattern) ? tagged('op', inputsOf(pattern)) : anyInput;
  const step = tagged('type', { op: { key: int(0), input }, pause: { ms: int(0) }, freeze: { ms: int(0) } });
  const op = object({
    type: oneOf(['op']),
    id: int(0),
    client: int(0),
    key: str,
    input,
    invokedAt: num,
    completedAt: num,
    outcome: oneOf(['ok', 'fail', 'info']),
    error: optional(str),
    acknowledgedReplicas: optional(int(0)),
    insideOf: optional(int(0)),
  });
  return object({
    impl: str,
    implSpec: optional(str),
    patternFile: optional(str),
    seed: int(0),
    path: optional(str),
    options: object({}),
    schedule: object({
      pattern: oneOf([pattern]),
      keys: int(1),
      clients: array(array(step)),
      faults: array(FAULT_STEP),
      race: optional(
        object({
          name: str,
          instant: oneOf(['lease-end', 'last-place']),
          key: int(0),
          holder: int(0),
          op: int(0),
          contender: int(0),
        }),
      ),
    }),
    scheduleText: optional(str),
    history: object({
      ops: array(op),
      faults: array(
        object({
          type: oneOf(['fault']),
          kind: str,
          startedAt: num,
          endedAt: num,
          lossy: (v, at) => typeof v === 'boolean' || fail(at, 'a boolean', v),
          failedNodes: optional(int(0)),
        }),
      ),
      topology: array(object({ type: oneOf(['topology']), at: num, summary: str })),
      probes: optional(array(object({ type: oneOf(['probe']), key: str, at: num, pttlMs: num }))),
    }),
    result: object({
      verdict: oneOf(['ok', 'illegal', 'replication-loss', 'clock-loss', 'unknown']),
      violations: array(object({ invariant: str, message: str })),
      keys: array(object({ key: str })),
    }),
  });
}

/** Throws a SchemaError naming the first field that is not what a counterexample holds. */
export function validateCounterexample(value: unknown, version: number): void {
  object({
    version: (v, at) => v === version || fail(at, String(version), v),
    pattern: (v, at) =>
      (typeof v === 'string' && isCheckableModel(v)) ||
      fail(at, `one of ${Object.keys(checkableModels).join(', ')}, or a pattern loaded with --pattern FILE`, v),
  })(value, '');
  counterexampleCheck((value as { pattern: string }).pattern)(value, '');
}
