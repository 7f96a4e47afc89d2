/**
 * Histories recorded elsewhere, coming in: a file in one of FORMATS read into chaoslua's History,
 * ready for the checker. No I/O: the caller reads the file and passes its text, so errors can name it.
 */
import type { History, OpRecord } from '../history/types.ts';
import { checkableModel, checkableModels, isCheckableModel, type CheckableModelName } from '../patterns/checkable.ts';
import { parseChaosluaJson } from './chaoslua-json.ts';
import { FormatError, ModelChoiceError } from './errors.ts';
import { FORMAT_MODEL, type HistoryFormat } from './formats.ts';
import { parseJepsenHistory } from './jepsen.ts';
import { pairEvents } from './pair.ts';
import { parseEtcdLog } from './porcupine-etcd.ts';

export { FormatError, ModelChoiceError } from './errors.ts';
export { detectFormat, FORMATS, FORMAT_MODEL, isHistoryFormat, type HistoryFormat } from './formats.ts';
export { readEdnForms, Keyword, type EdnValue } from './edn.ts';

export interface ReadHistory {
  readonly history: History;
  readonly model: CheckableModelName;
}

/**
 * A history with no client operations (an empty file, or only the nemesis's maps) is valid, as
 * Knossos and Porcupine judge it: nothing was observed that the model could refuse.
 */
export function readHistory(file: string, text: string, format: HistoryFormat, modelName?: string): ReadHistory {
  if (format === 'chaoslua') {
    const parsed = parseChaosluaJson(file, text);
    const model = chooseModel(format, modelName ?? parsed.model);
    if (modelName !== undefined && parsed.model !== undefined && parsed.model !== modelName) {
      throw new ModelChoiceError(
        `${file} is a counterexample of the ${parsed.model} pattern; --model ${modelName} disagrees`,
      );
    }
    return { history: validated(file, parsed.history, model), model };
  }
  const model = chooseModel(format, modelName);
  const { events, faults } =
    format === 'porcupine-etcd'
      ? { events: parseEtcdLog(file, text), faults: [] }
      : parseJepsenHistory(file, text, model);
  const ops = pairEvents(file, events);
  return { history: validated(file, { ops, faults, topology: [] }, model), model };
}

function chooseModel(format: HistoryFormat, name: string | undefined): CheckableModelName {
  const known = Object.keys(checkableModels).join(', ');
  const implied = FORMAT_MODEL[format];
  const chosen = name ?? implied;
  if (chosen === undefined)
    throw new ModelChoiceError(`--model is required for the ${format} format (one of ${known})`);
  if (!isCheckableModel(chosen)) throw new ModelChoiceError(`unknown model '${chosen}' (one of ${known})`);
  if (implied !== undefined && chosen !== implied)
    throw new ModelChoiceError(`the ${format} format holds ${implied} histories, not ${chosen}`);
  return chosen;
}

/** Every input must be one the model can step: a malformed one is bad input, not a verdict. */
function validated(file: string, history: History, name: CheckableModelName): History {
  const model = checkableModel(name);
  const seen = new Set<number>();
  for (const op of history.ops as OpRecord[]) {
    if (seen.has(op.id))
      throw new FormatError(file, undefined, `op id ${op.id} appears more than once; expected unique ids`);
    seen.add(op.id);
    let stepped;
    try {
      stepped = model.step(model.init(), op.input, op.id);
    } catch (error) {
      throw new FormatError(file, undefined, `op ${op.id}: ${(error as Error).message}`);
    }
    if (stepped?.output === undefined) {
      throw new FormatError(
        file,
        undefined,
        `op ${op.id}: ${shownJson(op.input)} is not an operation of the ${name} model`,
      );
    }
  }
  return history;
}

/** A value as JSON, cut to 60 characters with its length when longer: a 20 MiB value is not quoted whole. */
function shownJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}... (${text.length} characters)` : text;
}
