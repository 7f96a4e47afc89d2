/**
 * chaoslua's own history JSON: a counterexample.json (its `history`, and its `pattern` names the
 * model) or a bare history `{ "ops": [...], "faults": [...] }` as src/history/types.ts defines it.
 */
import type { FaultRecord, History, OpRecord } from '../history/types.ts';
import { FormatError } from './errors.ts';

export interface ChaosluaJson {
  readonly history: History;
  /** The model a counterexample names (its pattern); undefined for a bare history. */
  readonly model?: string;
}

export function looksLikeJson(text: string): boolean {
  return /^\s*\{\s*("|\})/.test(text);
}

export function parseChaosluaJson(file: string, text: string): ChaosluaJson {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0];
    throw new FormatError(file, lineOfPosition(text, message), `expected JSON (${message})`);
  }
  if (!isObject(parsed))
    throw new FormatError(file, 1, 'expected a JSON object: a counterexample or a history {"ops": [...]}');
  const fromCounterexample = isObject(parsed.history);
  const history = (fromCounterexample ? parsed.history : parsed) as Record<string, unknown>;
  const where = fromCounterexample ? 'history.' : '';
  if (!Array.isArray(history.ops))
    throw new FormatError(file, undefined, `expected ${where}ops to be an array of operation records`);
  const ops = history.ops.map((op, i) => operation(file, `${where}ops[${i}]`, op));
  const faults = Array.isArray(history.faults) ? (history.faults as FaultRecord[]) : [];
  const model = fromCounterexample && typeof parsed.pattern === 'string' ? parsed.pattern : undefined;
  return {
    history: {
      ops,
      faults,
      topology: Array.isArray(history.topology) ? history.topology : [],
      probes: Array.isArray(history.probes) ? history.probes : undefined,
    },
    model,
  };
}

function operation(file: string, where: string, value: unknown): OpRecord {
  const bad = (expected: string) => new FormatError(file, undefined, `${where}: expected ${expected}`);
  if (!isObject(value)) throw bad('an operation record {id, client, key, input, invokedAt, completedAt, outcome}');
  if (!Number.isSafeInteger(value.id)) throw bad('"id" to be an integer');
  if (typeof value.client !== 'number') throw bad('"client" to be a number');
  if (typeof value.key !== 'string') throw bad('"key" to be a string');
  if (!isObject(value.input)) throw bad('"input" to be an object with "op"');
  for (const t of ['invokedAt', 'completedAt'] as const)
    if (typeof value[t] !== 'number' || !Number.isFinite(value[t])) throw bad(`"${t}" to be a number of ms`);
  // As the Jepsen reader refuses a completion timed before its invocation: no interval holds the effect.
  if ((value.completedAt as number) < (value.invokedAt as number)) {
    throw new FormatError(
      file,
      undefined,
      `${where}: "completedAt" ${value.completedAt} comes before its "invokedAt" ${value.invokedAt} (expected a completion at or after its invocation)`,
    );
  }
  if (value.outcome !== 'ok' && value.outcome !== 'fail' && value.outcome !== 'info')
    throw bad('"outcome" to be "ok", "fail" or "info"');
  if (
    value.acknowledgedReplicas !== undefined &&
    !(Number.isSafeInteger(value.acknowledgedReplicas) && (value.acknowledgedReplicas as number) >= 0)
  ) {
    throw bad('"acknowledgedReplicas" to be an integer >= 0 when present');
  }
  // Marked in place, not copied as `{ ...value, type }`: in V8 (Node 20) a spread copy that adds a
  // field gets a map of its own per object, and every read of an operation in the checker became a
  // slow lookup (a 20,000-operation history written without "type": check 46 ms, 18 ms marked in place).
  value.type = 'op';
  return value as unknown as OpRecord;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON.parse names a position ("at position 123" or "line 4 column 2"); the line is what a person opens. */
function lineOfPosition(text: string, message: string): number | undefined {
  const line = /line (\d+)/.exec(message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/.exec(message);
  if (!position) return undefined;
  return text.slice(0, Number(position[1])).split('\n').length;
}
