/**
 * A checker in a child process that checks its files once per line it reads on stdin and prints one
 * JSON line per run ({ms, checkMs?, verdicts, states?}), so a bench can alternate several sides run by run:
 * a change in the box's load then falls on every side alike. bench/porcupine.ts's protocol; the Go
 * program and pattern-parity/chaoslua-side.ts both speak it.
 */
import { spawn } from 'node:child_process';

export interface PacedSide {
  readonly name: string;
  readonly runsMs: number[];
  readonly states: number[];
  /** Per run, the part of its wall time spent checking (reading and parsing the files left out). */
  readonly checkMs: number[];
  verdicts: Record<string, string>;
  /** Ended before its runs (crashed, or killed past the time limit). */
  stopped: boolean;
  run(): Promise<void>;
  close(): void;
}

export function pacedSide(name: string, command: string, args: string[], limitMs: number): PacedSide {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  let buffered = '';
  let spentMs = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      lines.push(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
    }
    wake?.();
  });
  child.on('close', () => {
    closed = true;
    wake?.();
  });
  child.stdin.on('error', () => {}); // a child that died is seen through 'close'
  const side: PacedSide = {
    name,
    runsMs: [],
    states: [],
    checkMs: [],
    verdicts: {},
    stopped: false,
    async run() {
      if (side.stopped) return;
      const started = performance.now();
      child.stdin.write('\n');
      const timer = setTimeout(() => child.kill('SIGKILL'), Math.max(0, limitMs - spentMs));
      while (lines.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
      clearTimeout(timer);
      spentMs += performance.now() - started;
      const line = lines.shift();
      if (line === undefined) {
        side.stopped = true;
        return;
      }
      const parsed = JSON.parse(line) as {
        ms: number;
        checkMs?: number;
        verdicts: Record<string, string>;
        states?: number;
      };
      side.runsMs.push(parsed.ms);
      if (parsed.states !== undefined) side.states.push(parsed.states);
      if (parsed.checkMs !== undefined) side.checkMs.push(parsed.checkMs);
      side.verdicts = parsed.verdicts;
    },
    close() {
      child.stdin.end();
      if (!closed) setTimeout(() => child.kill('SIGKILL'), 2000).unref();
    },
  };
  return side;
}
