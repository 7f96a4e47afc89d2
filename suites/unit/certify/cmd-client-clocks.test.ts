// The cmd: door under client-clock, on real processes (no Redis: the program answers each request
// with the wall clock it read): a process per logical client under the clock preload, client c's
// requests reaching process c only, and the offset the runner sets for client c moving process c's
// clock alone. Without client-clock, one process serves every client, as before.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cmdClockPlan } from '../../../src/certify/openers/cmd-clients.ts';
import { cmdOpener, type OpenedProcessImpl } from '../../../src/certify/openers/cmd.ts';
import type { Cluster } from '../../../src/cluster/types.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { setClientClocks } from '../../../src/runner/client-clocks.ts';
import { elf } from '../impl/elf-fixture.ts';

const ECHO = `'${process.execPath}' '${path.resolve(import.meta.dirname, '../../fixtures/process/clock-echo.mjs')}'`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-cmd-clocks-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// The opener asks a cluster only for the addresses it writes in the hello; this program dials none.
const addresses = { seeds: () => [], natMap: () => ({}), topologyKind: 'cluster' } as unknown as Cluster;

interface Echo {
  readonly now: number;
  readonly pid: number;
  readonly client: number;
  readonly clients: number;
}

async function open(clientClocks: boolean, clients: number): Promise<OpenedProcessImpl> {
  return cmdOpener(PATTERNS.idempotency, ECHO, {
    clientClocks,
    stderrFile: path.join(dir, `stderr-${clientClocks}.log`),
    handshakeTimeoutMs: 10_000,
  })(addresses, clients);
}

/** What each client's process read, with our clock just before the call and just after its answer. */
async function readAll(opened: OpenedProcessImpl) {
  return Promise.all(
    opened.subjects.map(async (subject) => {
      const before = Date.now();
      const echo = (await subject.invoke('k0', { op: 'release', owner: 'o' })) as Echo;
      return { ...echo, before, after: Date.now() };
    }),
  );
}

function expectOffset(r: { now: number; before: number; after: number }, offset: number): void {
  expect(r.now - r.before).toBeGreaterThanOrEqual(offset - 1);
  expect(r.now - r.after).toBeLessThanOrEqual(offset + 1);
}

describe('cmd: with client-clock', () => {
  it("runs a process per client, each under its own clock, and routes client c's requests to process c", async () => {
    const opened = await open(true, 3);
    try {
      expect(opened.clientClockReach).toMatch(
        /^cmd: a process per client under the clock preload \(CLOCK_REALTIME, gettimeofday, time\): node /,
      );
      setClientClocks(opened.subjects, [0, 50_000, -7_000]);
      const read = await readAll(opened);
      expect(new Set(read.map((r) => r.pid)).size).toBe(3);
      expect(read.map((r) => [r.client, r.clients])).toEqual([
        [0, 1],
        [1, 1],
        [2, 1],
      ]);
      expectOffset(read[0], 0);
      expectOffset(read[1], 50_000);
      expectOffset(read[2], -7_000);
      // The same processes, moved again while they run: client 1 back to true, client 0 ahead.
      setClientClocks(opened.subjects, [2_000, 0, -7_000]);
      const again = await readAll(opened);
      expect(again.map((r) => r.pid)).toEqual(read.map((r) => r.pid));
      expectOffset(again[0], 2_000);
      expectOffset(again[1], 0);
      expect(opened.findings()).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('keeps one process for every client without client-clock, and moves no clock', async () => {
    const opened = await open(false, 3);
    try {
      expect(opened.subjects.every((s) => s.clientClock?.set === undefined)).toBe(true);
      expect(opened.clientClockReach).toMatch(/^cmd: not reached: one program serves every logical client/);
      setClientClocks(opened.subjects, [0, 50_000, -7_000]);
      const read = await readAll(opened);
      expect(new Set(read.map((r) => r.pid)).size).toBe(1);
      expect(read.map((r) => r.clients)).toEqual([3, 3, 3]);
      for (const r of read) expectOffset(r, 0);
    } finally {
      await opened.close();
    }
  });

  it('keeps one process for a Go program, and its reach line says its clock is not reached and why', () => {
    const go = path.join(dir, 'adapter');
    fs.writeFileSync(go, elf({ interpreter: true, sections: ['.text', '.go.buildinfo'] }), { mode: 0o755 });
    const plan = cmdClockPlan(`${go} --verbose`);
    // What a shell runs in the end cannot be told: a process per client, and the line says it may not reach.
    const shell = cmdClockPlan(`sh -c '${go}'`);
    expect(shell.perClient).toBe(true);
    expect(shell.reach).toBe(
      "cmd: a process per client under the clock preload (CLOCK_REALTIME, gettimeofday, time); whether it reaches the program's clock cannot be told: sh (a shell: what it runs in the end cannot be told)",
    );
    expect(plan.perClient).toBe(false);
    expect(plan.reach).toBe(
      `cmd: not reached: ${go}, a Go program (its ELF has a .go.buildinfo section): Go reads the wall clock through the kernel's vDSO, not the C library, so no preload can move it; one process serves every client`,
    );
  });
});
