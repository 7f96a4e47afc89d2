// The clock preload and its page, on real processes: Node (reads through the C library) under the
// preload reads the offset the page holds, moved while it runs, and its monotonic clock never moves.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockLibrary } from '../../../src/clock/library.ts';
import { ClockPage } from '../../../src/clock/page.ts';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-clock-test-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * The wall reading of a Node process started under the preload with `page`, and our clock just before
 * we started it and just after it answered: it read the clock in between, however loaded the machine.
 */
function readings(page: ClockPage): { wall: number; before: number; after: number } {
  const before = Date.now();
  const out = execFileSync(
    process.execPath,
    ['-e', 'console.log(JSON.stringify({ wall: Date.now(), mono: Number(process.hrtime.bigint() / 1000000n) }))'],
    {
      env: { ...process.env, LD_PRELOAD: clockLibrary(), CHAOSLUA_CLOCK_FILE: page.file },
      encoding: 'utf8',
    },
  );
  return { ...JSON.parse(out), before, after: Date.now() };
}

/** The shift the process read is `offset` (to 1 ms): between its reading less our clock after, and less our clock before. */
function expectShift(r: { wall: number; before: number; after: number }, offset: number): void {
  expect(r.wall - r.before).toBeGreaterThanOrEqual(offset - 1);
  expect(r.wall - r.after).toBeLessThanOrEqual(offset + 1);
}

describe('the clock preload', () => {
  it('shifts a process by the page, forward and back, and leaves it true at 0', () => {
    const page = ClockPage.create(path.join(dir, 'a'));
    page.set({ offsetMs: 50_000 });
    expectShift(readings(page), 50_000);
    page.set({ offsetMs: -7_000 });
    expectShift(readings(page), -7_000);
    page.reset();
    expectShift(readings(page), 0);
    page.close();
  });

  it('moves a running process, and never its monotonic clock', async () => {
    const page = ClockPage.create(path.join(dir, 'b'));
    const script = `setInterval(() => console.log(JSON.stringify({ wall: Date.now(), mono: performance.timeOrigin + performance.now() })), 20); setTimeout(() => process.exit(0), 3000)`;
    const child = spawn(process.execPath, ['-e', script], {
      env: { ...process.env, LD_PRELOAD: clockLibrary(), CHAOSLUA_CLOCK_FILE: page.file },
    });
    const lines: { wall: number; mono: number; ours: number }[] = [];
    child.stdout.setEncoding('utf8');
    let buffered = '';
    child.stdout.on('data', (d: string) => {
      buffered += d;
      for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
        lines.push({ ...JSON.parse(buffered.slice(0, i)), ours: Date.now() });
        buffered = buffered.slice(i + 1);
      }
    });
    while (lines.length < 3) await new Promise((r) => setTimeout(r, 20));
    page.set({ offsetMs: 20_000 });
    const movedAt = lines.length;
    while (lines.length < movedAt + 5) await new Promise((r) => setTimeout(r, 20));
    child.kill();
    const before = lines[movedAt - 2];
    const after = lines[lines.length - 1];
    expect(before.wall - before.ours).toBeLessThan(1_000);
    expect(after.wall - after.ours).toBeGreaterThan(19_000);
    // The monotonic clock kept pace with real time across the jump.
    expect(after.mono - before.mono).toBeLessThan(after.ours - before.ours + 1_000);
    page.close();
  });

  it('drifts: a clock running 10% fast gains about 100 ms a second', async () => {
    const page = ClockPage.create(path.join(dir, 'c'));
    const setFrom = Date.now();
    page.set({ offsetMs: 0, driftPpm: 100_000 });
    const setBy = Date.now();
    await new Promise((r) => setTimeout(r, 1_000));
    // Read at some instant between r.before and r.after, it had gained a tenth of the time since the set.
    const r = readings(page);
    expect(r.wall - r.before).toBeGreaterThanOrEqual((r.before - setBy) * 0.1 - 1);
    expect(r.wall - r.after).toBeLessThanOrEqual((r.after - setFrom) * 0.1 + 1);
    expect(r.wall - r.before).toBeGreaterThan(95);
    expect(page.offsetMs()).toBeGreaterThan(95);
    page.close();
  });
});
