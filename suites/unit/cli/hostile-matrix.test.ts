import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { HOSTILE_CASES, READ_WAIT_MS, removeHostileFiles } from '../../cli/support/hostile-cases.ts';
import { cli, forbidClusters, STACK_FRAME } from './support.ts';

// The whole table of hostile inputs (every command with every hostile input), in-process: one line, exit 2,
// within the time a FIFO's silence is allowed, no cluster reached and no folder left in the working
// folder or the temp folder. suites/cli/hostile-inputs.test.ts runs a case per command and per input
// as a process, where what is left running is checked too.

afterAll(removeHostileFiles);

describe('hostile inputs, the whole table: one line, exit 2, nothing started or left', () => {
  it.each(HOSTILE_CASES.map(([name, args, message]) => ({ name, args, message })))(
    '$name',
    async ({ args, message }) => {
      const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-matrix-'));
      const tmp = path.join(base, 'tmp');
      const cwd = path.join(base, 'cwd');
      fs.mkdirSync(tmp);
      fs.mkdirSync(cwd);
      vi.stubEnv('CHAOSLUA_READ_WAIT_MS', READ_WAIT_MS);
      vi.stubEnv('TMPDIR', tmp);
      vi.stubEnv('CHAOSLUA_TMPDIR', tmp);
      vi.spyOn(process, 'cwd').mockReturnValue(cwd);
      const clusters = forbidClusters();
      try {
        const started = Date.now();
        const r = await cli([...args]);
        expect(r.stderr.trimEnd()).toMatch(message);
        expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
        expect(r.stderr).not.toMatch(STACK_FRAME);
        expect(r.code, r.stderr).toBe(2);
        expect(clusters).toEqual([]);
        // A guard against a wait that was not cut short, not a speed bound: under the default 10 s a FIFO
        // waits when CHAOSLUA_READ_WAIT_MS is ignored. (5 s failed once with two soaks beside it: the
        // /dev/zero cases read their 64 MiB bound, 6.4 s on a loaded machine.)
        expect(Date.now() - started).toBeLessThan(9_000);
        expect([...fs.readdirSync(tmp), ...fs.readdirSync(cwd)]).toEqual([]);
      } finally {
        vi.unstubAllEnvs();
        fs.rmSync(base, { recursive: true, force: true });
      }
    },
  );
});
