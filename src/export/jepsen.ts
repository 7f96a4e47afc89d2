/**
 * A history as Jepsen EDN, one operation map per line, with :time in nanoseconds so expiry windows
 * survive the trip. See src/ingest/codecs.ts for how each model's operations are written. Faults
 * are nemesis maps `{:process :nemesis, :type :info, :f :fault, :value {fault record}}` at their
 * start: Jepsen's checkers skip them; chaoslua reads them back, since lossy faults and cut
 * connections change what a history may legally show.
 */
import type { History } from '../history/types.ts';
import { codecFor, ednOf } from '../ingest/codecs.ts';
import { Keyword, writeEdn, type EdnMap, type EdnValue } from '../ingest/edn.ts';
import type { CheckableModelName } from '../patterns/checkable.ts';
import { eventLog } from './events.ts';

export function toJepsen(history: History, model: CheckableModelName): string {
  const codec = codecFor(model);
  const lines: { at: number; map: EdnMap }[] = [];
  for (const fault of history.faults) {
    const { type: _type, ...record } = fault;
    const map: EdnMap = new Map<string, EdnValue>([
      ['process', new Keyword('nemesis')],
      ['type', new Keyword('info')],
      ['f', new Keyword('fault')],
      ['value', ednOf(record)],
    ]);
    lines.push({ at: fault.startedAt, map });
  }
  eventLog(history.ops).forEach(({ op, kind, process, at }, index) => {
    const { f, value } = codec.encodeInput(op.input);
    const map: EdnMap = new Map<string, EdnValue>([['process', process]]);
    let type = kind === 'invoke' ? 'invoke' : op.outcome;
    let result: EdnValue = value;
    let error: EdnValue | undefined;
    if (kind === 'complete') {
      if (op.outcome === 'ok') {
        const asFail = codec.okAsFail?.(op.input, op.output);
        if (asFail !== undefined) [type, error] = ['fail', asFail];
        else result = codec.encodeOutput(op.input, op.output);
      } else error = op.error ?? null;
    }
    map.set('type', new Keyword(type));
    map.set('f', new Keyword(f));
    if (!(model === 'register' && op.key === 'register')) map.set('key', op.key);
    map.set('value', result);
    if (error !== undefined) map.set('error', error);
    map.set('index', index);
    lines.push({ at, map });
  });
  // Stable: a fault starting at an operation's instant comes before it.
  lines.sort((a, b) => a.at - b.at);
  return lines.map(({ at, map }) => writeEdn(map.set('time', Math.round(at * 1e6)))).join('\n') + '\n';
}
