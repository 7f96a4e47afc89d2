/**
 * Porcupine's etcd logs (Jepsen etcd 2.0 register tests, via Horn & Kroening's checker):
 *   INFO  jepsen.util - <process>	:<invoke|ok|fail|info>	:<read|write|cas>	<nil|N|[from to]|:timed-out>
 * Read as Porcupine's own test parser reads them, with two points that decide verdicts:
 * `:fail :cas` is a compare-and-set that ran and answered false (an ok operation, output false),
 * not a failed one; `:fail :read :timed-out` is a read with unknown outcome, and `:info` leaves the
 * operation open (it may or may not have taken effect). Times are the lines' order.
 */
import type { RegisterInput } from '../model/register.ts';
import { FormatError } from './errors.ts';
import type { LogEvent } from './pair.ts';

const LINE =
  /^INFO\s+jepsen\.util\s+-\s+(\d+)\s+:(invoke|ok|fail|info)\s+:(read|write|cas)\s+(nil|\d+|\[\d+\s+\d+\]|:timed-out)\s*$/;
export const ETCD_KEY = 'register';

export function looksLikeEtcdLog(firstLine: string): boolean {
  return /^INFO\s+jepsen\.util\s+-/.test(firstLine);
}

export function parseEtcdLog(file: string, text: string): LogEvent[] {
  const events: LogEvent[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const line = i + 1;
    if (raw.trim() === '') continue;
    const m = LINE.exec(raw);
    if (!m)
      throw new FormatError(
        file,
        line,
        'expected "INFO  jepsen.util - <process> :<invoke|ok|fail|info> :<read|write|cas> <nil|N|[from to]|:timed-out>"',
      );
    const [, processText, type, f, arg] = m;
    const event = etcdEvent(line, Number(processText), type, f, arg, events.length);
    if (typeof event === 'string') throw new FormatError(file, line, `:${type} :${f}: expected ${event}, got ${arg}`);
    events.push(event);
  }
  return events;
}

/** The event of one line, or what was expected of its argument. Events built whole, in one shape per kind. */
function etcdEvent(line: number, process: number, type: string, f: string, arg: string, at: number): LogEvent | string {
  const numbers = arg.startsWith('[') ? arg.slice(1, -1).trim().split(/\s+/).map(Number) : [];
  if (type === 'invoke') {
    let input: RegisterInput;
    if (f === 'read') {
      if (arg !== 'nil') return 'nil';
      input = { op: 'read' };
    } else if (f === 'write') {
      if (!/^\d+$/.test(arg)) return 'an integer';
      input = { op: 'write', value: Number(arg) };
    } else {
      if (numbers.length !== 2) return '[from to]';
      input = { op: 'cas', from: numbers[0], to: numbers[1] };
    }
    return { kind: 'invoke', line, process, f, key: ETCD_KEY, input, at };
  }
  if (type === 'info')
    return { kind: 'info', line, process, f, error: arg === ':timed-out' ? 'timed out' : `info ${arg}`, at };
  if (f === 'read') {
    if (type === 'fail') {
      if (arg !== ':timed-out') return ':timed-out';
      return { kind: 'info', line, process, f, error: 'read timed out', at };
    }
    if (arg !== 'nil' && !/^\d+$/.test(arg)) return 'nil or an integer';
    return { kind: 'ok', line, process, f, output: arg === 'nil' ? null : Number(arg), at };
  }
  if (f === 'write') {
    if (type === 'fail') return '(a write completes :ok or :info; :fail :write is not in this format)';
    if (!/^\d+$/.test(arg)) return 'an integer';
    return { kind: 'ok', line, process, f, output: Number(arg), at };
  }
  if (numbers.length !== 2) return '[from to]';
  // The compare-and-set ran: :ok swapped, :fail found another value.
  return { kind: 'ok', line, process, f, output: type === 'ok', at };
}
