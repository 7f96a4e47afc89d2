/**
 * A history in the formats Porcupine's own tests read: the etcd log for the register model, the
 * kv log for the kv model. Porcupine reads them by regular expressions, so what they cannot say is
 * refused rather than written wrongly. Operations that failed (certainly did not take effect) are
 * left out; indeterminate ones are written as Porcupine's parser leaves them open, and an
 * indeterminate read or get, which constrains nothing, as a timed-out read (etcd) or not at all (kv).
 */
import type { History, OpRecord } from '../history/types.ts';
import type { KvInput } from '../model/kv.ts';
import type { RegisterInput } from '../model/register.ts';
import { eventLog } from './events.ts';

export class ExportError extends Error {}

export function toPorcupine(history: History, model: string): string {
  if (model === 'register') return etcdLog(history);
  if (model === 'kv') return kvLog(history);
  throw new ExportError(
    `Porcupine's log formats hold register (etcd) and kv histories, not ${model}; use --format jepsen`,
  );
}

function etcdLog(history: History): string {
  const keys = new Set(history.ops.map((op) => op.key));
  if (keys.size > 1)
    throw new ExportError(
      `Porcupine's etcd log holds one register; this history has ${keys.size} keys (use --format jepsen)`,
    );
  const lines: string[] = [];
  for (const { op, kind, process } of eventLog(history.ops.filter((o) => o.outcome !== 'fail'))) {
    const input = op.input as RegisterInput;
    const head = `INFO  jepsen.util - ${process}\t`;
    if (kind === 'invoke') {
      lines.push(`${head}:invoke\t:${input.op}\t${etcdArgument(op, input)}`);
    } else if (op.outcome === 'info') {
      lines.push(input.op === 'read' ? `${head}:fail\t:read\t:timed-out` : `${head}:info\t:${input.op}\t:timed-out`);
    } else if (input.op === 'read') {
      lines.push(
        `${head}:ok\t:read\t${op.output === null || op.output === undefined ? 'nil' : integer(op, op.output)}`,
      );
    } else if (input.op === 'write') {
      lines.push(`${head}:ok\t:write\t${integer(op, input.value)}`);
    } else {
      if (typeof op.output !== 'boolean')
        throw new ExportError(`op ${op.id}: a cas answers true or false, got ${shownJson(op.output)}`);
      lines.push(`${head}:${op.output ? 'ok' : 'fail'}\t:cas\t${etcdArgument(op, input)}`);
    }
  }
  return lines.join('\n') + '\n';
}

function etcdArgument(op: OpRecord, input: RegisterInput): string {
  if (input.op === 'read') return 'nil';
  if (input.op === 'write') return integer(op, input.value);
  return `[${integer(op, input.from)} ${integer(op, input.to)}]`;
}

function integer(op: OpRecord, value: unknown): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ExportError(
      `op ${op.id}: Porcupine's etcd log holds non-negative integers only, got ${shownJson(value)}`,
    );
  }
  return String(value);
}

function kvLog(history: History): string {
  // An indeterminate get constrains nothing; Porcupine would read an open one as returning "".
  const ops = history.ops.filter(
    (o) => o.outcome !== 'fail' && !(o.outcome === 'info' && (o.input as KvInput).op === 'get'),
  );
  const lines: string[] = [];
  for (const { op, kind, process } of eventLog(ops)) {
    const input = op.input as KvInput;
    const type = kind === 'invoke' ? 'invoke' : op.outcome;
    let value: string;
    if (input.op !== 'get') value = text(op, input.value);
    else if (kind === 'invoke') value = 'nil';
    else value = text(op, op.output ?? '');
    lines.push(`{:process ${process}, :type :${type}, :f :${input.op}, :key ${text(op, op.key)}, :value ${value}}`);
  }
  return lines.join('\n') + '\n';
}

/** Porcupine's kv parser takes what is between the quotes as is: no escapes. */
function text(op: OpRecord, value: unknown): string {
  if (typeof value !== 'string' || /["\\\n\r]/.test(value)) {
    throw new ExportError(
      `op ${op.id}: Porcupine's kv log holds strings without quotes, backslashes or newlines, got ${shownJson(value)}`,
    );
  }
  return `"${value}"`;
}

/** A value as JSON, cut to 60 characters with its length when longer: a 20 MiB value is not quoted whole. */
function shownJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}... (${text.length} characters)` : text;
}
