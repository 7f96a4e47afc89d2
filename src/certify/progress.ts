import type { RunTally } from './chaos.ts';
import type { Io } from './types.ts';

/**
 * The live progress line on stderr: rewritten in place on a terminal, one line every ten
 * seconds (and at the end) otherwise, so CI logs stay short.
 */
export function progressReporter(io: Io, totalRuns: number, quiet: boolean) {
  const started = performance.now();
  const tty = (io.stderr as { isTTY?: boolean }).isTTY === true;
  let lastPrint = performance.now();
  let lastLine = '';
  const line = (t: RunTally) =>
    `runs ${t.runs}/${totalRuns} · ops ${t.ops} · faults ${t.faults} · failures ${t.failures}` +
    (t.replicationLosses ? ` · replication losses ${t.replicationLosses}` : '') +
    ` · ${((performance.now() - started) / 1000).toFixed(0)}s`;
  return {
    update(t: RunTally) {
      if (quiet) return;
      if (tty) io.stderr.write(`\r\x1b[K${line(t)}`);
      else if (performance.now() - lastPrint > 10_000) {
        lastPrint = performance.now();
        lastLine = line(t);
        io.stderr.write(`${lastLine}\n`);
      }
    },
    done(t: RunTally) {
      if (quiet) return;
      if (tty) io.stderr.write(`\r\x1b[K${line(t)}\n`);
      else if (line(t) !== lastLine) io.stderr.write(`${line(t)}\n`);
    },
  };
}
