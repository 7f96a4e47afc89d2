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

/** Wall and monotonic readings of a Node process started under the preload with `page`. */
function readings(page: ClockPage): { wall: number; mono: number } {
  const out = execFileSync(process.execPath, ['-e', 'console.log(JSON.stringify({ wall: Date.now(), mono: Number(process.hrtime.bigint() / 1000000n) }))'], {
    env: { ...process.env, LD_PRELOAD: clockLibrary(), CHAOSLUA_CLOCK_FILE: page.file },
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

describe('the clock preload', () => {
  it('shifts a process by the page, forward and back, and leaves it true at 0', () => {
    const page = ClockPage.create(path.join(dir, 'a'));
    page.set({ offsetMs: 50_000 });
    const ahead = readings(page).wall - Date.now();
    page.set({ offsetMs: -7_000 });
    const behind = readings(page).wall - Date.now();
    page.reset();
    const back = readings(page).wall - Date.now();
    // The reading is taken a few ms before our Date.now(), in a process that takes ~50 ms to start.
    expect(ahead).toBeGreaterThan(49_000);
    expect(ahead).toBeLessThanOrEqual(50_000);
    expect(behind).toBeGreaterThan(-8_000);
    expect(behind).toBeLessThanOrEqual(-7_000);
    expect(Math.abs(back)).toBeLessThan(1_000);
    page.close();
  });

  it('moves a running process, and never its monotonic clock', async () => {
    const page = ClockPage.create(path.join(dir, 'b'));
    const script = `setInterval(() => console.log(JSON.stringify({ wall: Date.now(), mono: performance.timeOrigin + performance.now() })), 20); setTimeout(() => process.exit(0), 3000)`;
    const child = spawn(process.execPath, ['-e', script], { env: { ...process.env, LD_PRELOAD: clockLibrary(), CHAOSLUA_CLOCK_FILE: page.file } });
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
    page.set({ offsetMs: 0, driftPpm: 100_000 });
    await new Promise((r) => setTimeout(r, 1_000));
    const gained = readings(page).wall - Date.now();
    expect(gained).toBeGreaterThan(80);
    expect(gained).toBeLessThan(200);
    expect(page.offsetMs()).toBeGreaterThan(95);
    page.close();
  });
});
