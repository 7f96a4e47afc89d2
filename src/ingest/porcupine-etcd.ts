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

const LINE = /^INFO\s+jepsen\.util\s+-\s+(\d+)\s+:(invoke|ok|fail|info)\s+:(read|write|cas)\s+(nil|\d+|\[\d+\s+\d+\]|:timed-out)\s*$/;
export const ETCD_KEY = 'register';

export function looksLikeEtcdLog(firstLine: string): boolean {
  return /^INFO\s+jepsen\.util\s+-/.test(firstLine);
}

export function parseEtcdLog(file: string, text: string): LogEvent[] {
  const events: LogEvent[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    const m = LINE.exec(raw);
    if (!m) throw new FormatError(file, line, 'expected "INFO  jepsen.util - <process> :<invoke|ok|fail|info> :<read|write|cas> <nil|N|[from to]|:timed-out>"');
    const [, processText, type, f, arg] = m;
    const process = Number(processText);
    const at = events.length;
    const event = { line, process, f, at };
    const numbers = arg.startsWith('[') ? arg.slice(1, -1).trim().split(/\s+/).map(Number) : [];
    const bad = (expected: string) => new FormatError(file, line, `:${type} :${f}: expected ${expected}, got ${arg}`);
    if (type === 'invoke') {
      let input: RegisterInput;
      if (f === 'read') {
        if (arg !== 'nil') throw bad('nil');
        input = { op: 'read' };
      } else if (f === 'write') {
        if (!/^\d+$/.test(arg)) throw bad('an integer');
        input = { op: 'write', value: Number(arg) };
      } else {
        if (numbers.length !== 2) throw bad('[from to]');
        input = { op: 'cas', from: numbers[0], to: numbers[1] };
      }
      events.push({ ...event, kind: 'invoke', key: ETCD_KEY, input });
    } else if (type === 'info') {
      events.push({ ...event, kind: 'info', error: arg === ':timed-out' ? 'timed out' : `info ${arg}` });
    } else if (f === 'read') {
      if (type === 'fail') {
        if (arg !== ':timed-out') throw bad(':timed-out');
        events.push({ ...event, kind: 'info', error: 'read timed out' });
      } else {
        if (arg !== 'nil' && !/^\d+$/.test(arg)) throw bad('nil or an integer');
        events.push({ ...event, kind: 'ok', output: arg === 'nil' ? null : Number(arg) });
      }
    } else if (f === 'write') {
      if (type === 'fail') throw bad('(a write completes :ok or :info; :fail :write is not in this format)');
      if (!/^\d+$/.test(arg)) throw bad('an integer');
      events.push({ ...event, kind: 'ok', output: Number(arg) });
    } else {
      if (numbers.length !== 2) throw bad('[from to]');
      // The compare-and-set ran: :ok swapped, :fail found another value.
      events.push({ ...event, kind: 'ok', output: type === 'ok' });
    }
  });
  return events;
}
