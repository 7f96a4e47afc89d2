import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_CASES, READ_WAIT_MS, removeHostileFiles } from './support/hostile-cases.ts';
import { runCli } from './support/hostile.ts';

// Nothing a user types can hang the CLI. Each command, through the real entry point (a
// process of its own) and with a deadline, is handed something that never ends or never answers:
// it prints one line naming it, exits 2 within seconds, and leaves nothing (no process it started,
// no temp, probe or report folder). The whole table runs in-process in suites/unit/cli/hostile-matrix.test.ts.

afterAll(removeHostileFiles);

const REAL = HOSTILE_CASES.filter((c) => c[3] === 'real').map(([name, args, message]) => ({ name, args, message }));

describe('hostile inputs, as processes: every command ends at once, one line, exit 2, nothing left behind', () => {
  it('covers every command that reads or writes a file', () => {
    const commands = new Set(
      REAL.map(({ args }) =>
        args[0] === 'report' || args[0] === 'scenario' || args[0] === 'corpus' ? `${args[0]} ${args[1]}` : args[0],
      ),
    );
    expect([...commands].sort()).toEqual([
      'certify',
      'check',
      'corpus list',
      'export',
      'lint',
      'merge',
      'replay',
      'report open',
      'report serve',
      'run',
      'scenario run',
    ]);
  });

  it.concurrent.each(REAL)('$name', async ({ args, message }) => {
    const r = await runCli(args, { deadlineMs: 20_000, env: { CHAOSLUA_READ_WAIT_MS: READ_WAIT_MS } });
    expect(r.timedOut, `still running after 20 s: ${r.stderr}`).toBe(false);
    expect(r.stderr.trimEnd()).toMatch(message);
    expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
    expect(r.stderr).toMatch(/^chaoslua/);
    expect(r.code, r.stderr).toBe(2);
    expect(r.processesLeft).toEqual([]);
    expect(r.filesLeft).toEqual([]);
    expect(r.ms).toBeLessThan(10_000);
  });
});
