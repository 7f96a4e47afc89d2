/**
 * How each model's inputs and outputs look in Jepsen's operation maps, both ways: `decode` reads a
 * `:value` into a model input or an observed output, `encode` writes one back (src/export uses it).
 *
 * register: :read nil -> value; :write v -> v; :cas [from to] -> [from to]. Jepsen records a
 *   compare-and-set whose compare failed as `:fail` (it did not take effect) and chaoslua reads it so;
 *   `:error :cas-mismatch` on it (what `chaoslua export` writes) keeps the stronger reading that it
 *   ran and answered false.
 * kv: :get nil -> string; :put / :append string (Porcupine's kv tests).
 * Redis patterns: `:f` is the operation and `:value` a map of the rest of the input
 *   ({:token "t", :ttlMs 100}); the completion's :value is the reply as recorded.
 */
import type { CheckableModelName } from '../patterns/checkable.ts';
import type { KvInput } from '../model/kv.ts';
import type { RegisterInput, RegisterValue } from '../model/register.ts';
import { EdnSymbol, Keyword, type EdnValue } from './edn.ts';

/** Thrown with what was expected; the reader adds file and line. */
export class CodecError extends Error {}

export interface JepsenCodec {
  decodeInput(f: string, value: EdnValue): unknown;
  decodeOutput(f: string, value: EdnValue): unknown;
  /** A :fail that means the operation ran and answered this output, or undefined for a plain failure. */
  failAsOutput?(f: string, error: EdnValue | undefined): unknown;
  encodeInput(input: unknown): { f: string; value: EdnValue };
  encodeOutput(input: unknown, output: unknown): EdnValue;
  /** An ok output that Jepsen's convention writes as a :fail, with its :error. */
  okAsFail?(input: unknown, output: unknown): EdnValue | undefined;
}

export const CAS_MISMATCH = 'cas-mismatch';

function registerValue(value: EdnValue, what: string): RegisterValue {
  if (typeof value === 'number' || typeof value === 'string') return value;
  throw new CodecError(`expected ${what} to be an integer or a string`);
}

const registerCodec: JepsenCodec = {
  decodeInput(f, value) {
    if (f === 'read') return { op: 'read' } satisfies RegisterInput;
    if (f === 'write') return { op: 'write', value: registerValue(value, ':write :value') } satisfies RegisterInput;
    if (f === 'cas') {
      if (!Array.isArray(value) || value.length !== 2) throw new CodecError('expected :cas :value to be [from to]');
      return {
        op: 'cas',
        from: registerValue(value[0], 'cas from'),
        to: registerValue(value[1], 'cas to'),
      } satisfies RegisterInput;
    }
    throw new CodecError(`expected :f to be :read, :write or :cas for the register model, got :${f}`);
  },
  decodeOutput(f, value) {
    if (f === 'read') return value === null ? null : registerValue(value, ':read :value');
    if (f === 'cas') return typeof value === 'boolean' ? value : true;
    return value === null ? null : plain(value);
  },
  failAsOutput: (f, error) =>
    f === 'cas' && error instanceof Keyword && error.name === CAS_MISMATCH ? false : undefined,
  encodeInput(input) {
    const i = input as RegisterInput;
    if (i.op === 'read') return { f: 'read', value: null };
    if (i.op === 'write') return { f: 'write', value: i.value };
    return { f: 'cas', value: [i.from, i.to] };
  },
  encodeOutput(input, output) {
    const i = input as RegisterInput;
    if (i.op === 'read') return output === undefined ? null : ednOf(output);
    if (i.op === 'write') return i.value;
    return [i.from, i.to];
  },
  okAsFail: (input, output) =>
    (input as RegisterInput).op === 'cas' && output === false ? new Keyword(CAS_MISMATCH) : undefined,
};

const kvCodec: JepsenCodec = {
  decodeInput(f, value) {
    if (f === 'get') return { op: 'get' } satisfies KvInput;
    if (f === 'put' || f === 'append') {
      if (typeof value !== 'string') throw new CodecError(`expected :${f} :value to be a string`);
      return { op: f, value } satisfies KvInput;
    }
    throw new CodecError(`expected :f to be :get, :put or :append for the kv model, got :${f}`);
  },
  decodeOutput(f, value) {
    if (f === 'get' && value !== null && typeof value !== 'string')
      throw new CodecError('expected :get :value to be a string or nil');
    return value === null ? null : plain(value);
  },
  encodeInput(input) {
    const i = input as KvInput;
    return i.op === 'get' ? { f: 'get', value: null } : { f: i.op, value: i.value };
  },
  encodeOutput(input, output) {
    const i = input as KvInput;
    return i.op === 'get' ? (output === undefined ? null : ednOf(output)) : i.value;
  },
};

const patternCodec: JepsenCodec = {
  decodeInput(f, value) {
    if (!(value instanceof Map))
      throw new CodecError(`expected :value of the :invoke to be a map of :${f}'s arguments`);
    return { op: f, ...(plain(value) as Record<string, unknown>) };
  },
  decodeOutput: (_f, value) => plain(value),
  encodeInput(input) {
    const { op, ...args } = input as { op: string } & Record<string, unknown>;
    return { f: op, value: ednOf(args) };
  },
  encodeOutput: (_input, output) => (output === undefined ? null : ednOf(output)),
};

export function codecFor(model: CheckableModelName): JepsenCodec {
  if (model === 'register') return registerCodec;
  if (model === 'kv') return kvCodec;
  return patternCodec;
}

/** EDN data as plain JSON-like data: keywords and symbols become their names, maps objects. */
export function plain(value: EdnValue): unknown {
  if (value instanceof Keyword || value instanceof EdnSymbol) return value.name;
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  return value;
}

/** Plain data as EDN: objects become maps with keyword keys. */
export function ednOf(value: unknown): EdnValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(ednOf);
  if (typeof value === 'object') return new Map(Object.entries(value).map(([k, v]) => [k, ednOf(v)]));
  throw new CodecError(`cannot write ${typeof value} as EDN`);
}
