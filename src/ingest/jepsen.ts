/**
 * Jepsen EDN histories: one operation map per line (history.edn), or one vector of them. Each map
 * has :process, :type (:invoke, :ok, :fail or :info), :f and :value; :key when the history spans
 * keys (Porcupine's kv logs), :time in nanoseconds when Jepsen recorded it (else the order of the
 * events is the clock), and :error on failures. Maps whose :process is not an integer (the nemesis)
 * are faults, not client operations: they are skipped, except the `:f :fault` maps `chaoslua export`
 * writes, which carry a chaoslua fault record (what the checker needs of lossy faults and cut
 * connections) in their :value.
 * :fail means the operation did not take effect; :info leaves it open (it may or may not have).
 */
import type { FaultRecord } from '../history/types.ts';
import type { CheckableModelName } from '../patterns/checkable.ts';
import { codecFor, CodecError, plain } from './codecs.ts';
import { EdnSyntaxError, Keyword, readEdnForms, type EdnForm, type EdnMap, type EdnValue } from './edn.ts';
import { FormatError } from './errors.ts';
import type { LogEvent } from './pair.ts';

const TYPES = new Set(['invoke', 'ok', 'fail', 'info']);

export function parseJepsenHistory(
  file: string,
  text: string,
  model: CheckableModelName,
): { events: LogEvent[]; faults: FaultRecord[] } {
  let forms: EdnForm[];
  try {
    forms = readEdnForms(text);
  } catch (error) {
    if (error instanceof EdnSyntaxError) throw new FormatError(file, error.line, `EDN: ${error.expected}`);
    throw error;
  }
  // A whole history written as one vector of maps.
  if (forms.length === 1 && Array.isArray(forms[0].value))
    forms = forms[0].value.map((value) => ({ value, line: forms[0].line }));
  const codec = codecFor(model);
  const maps: { map: EdnMap; line: number }[] = [];
  for (const { value, line } of forms) {
    if (!(value instanceof Map))
      throw new FormatError(
        file,
        line,
        'expected an operation map {:process P, :type :invoke|:ok|:fail|:info, :f F, :value V}',
      );
    maps.push({ map: value, line });
  }
  const clientMaps = maps.filter(({ map }) => typeof map.get('process') === 'number');
  const faults = maps
    .filter(({ map }) => typeof map.get('process') !== 'number' && name(map.get('f')) === 'fault')
    .map(({ map, line }) => faultRecord(file, line, map));
  const timed = clientMaps.length > 0 && clientMaps.every(({ map }) => typeof map.get('time') === 'number');
  const defaultKey = model === 'register' ? 'register' : undefined;

  const events = clientMaps.map(({ map, line }, index): LogEvent => {
    const process = map.get('process') as number;
    const type = name(map.get('type'));
    if (type === undefined || !TYPES.has(type))
      throw new FormatError(file, line, 'expected :type to be :invoke, :ok, :fail or :info');
    const f = name(map.get('f'));
    if (f === undefined) throw new FormatError(file, line, 'expected :f to name the operation (a keyword)');
    const at = timed ? (map.get('time') as number) / 1e6 : index;
    const value = map.get('value') ?? null;
    try {
      if (type === 'invoke') {
        const key = keyOf(map.get('key')) ?? defaultKey;
        if (key === undefined) throw new CodecError(`expected :key (the ${model} model checks each key on its own)`);
        return { kind: 'invoke', line, process, f, key, input: codec.decodeInput(f, value), at };
      }
      if (type === 'ok') return { kind: 'ok', line, process, f, output: codec.decodeOutput(f, value), at };
      const error = map.get('error');
      if (type === 'fail') {
        const ran = codec.failAsOutput?.(f, error);
        if (ran !== undefined) return { kind: 'ok', line, process, f, output: ran, at };
      }
      return {
        kind: type as 'fail' | 'info',
        line,
        process,
        f,
        error: error === undefined ? undefined : errorText(error),
        at,
      };
    } catch (error) {
      if (error instanceof CodecError) throw new FormatError(file, line, error.message);
      throw error;
    }
  });
  return { events, faults };
}

const FAULT_FIELDS = {
  id: 'number',
  kind: 'string',
  target: 'string',
  startedAt: 'number',
  endedAt: 'number',
  lossy: 'boolean',
} as const;

function faultRecord(file: string, line: number, map: EdnMap): FaultRecord {
  const value = plain(map.get('value') ?? null) as Record<string, unknown> | null;
  for (const [field, type] of Object.entries(FAULT_FIELDS)) {
    if (value === null || typeof value !== 'object' || typeof value[field] !== type) {
      throw new FormatError(file, line, `expected a :fault's :value to hold :${field} (a ${type})`);
    }
  }
  return {
    ...(value as unknown as FaultRecord),
    type: 'fault',
    detail: typeof value?.detail === 'string' ? value.detail : '',
  };
}

function name(value: EdnValue | undefined): string | undefined {
  if (value instanceof Keyword) return value.name;
  return typeof value === 'string' ? value : undefined;
}

function keyOf(value: EdnValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (value instanceof Keyword) return value.name;
  throw new CodecError('expected :key to be a string, a keyword or an integer');
}

function errorText(value: EdnValue): string {
  if (value instanceof Keyword) return value.toString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}
