/** `chaoslua scenario` as a user types it: list, run NAME --json (a run folder with the observations), usage errors. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/scenario.ts';
import { SCENARIOS } from '../../scenarios/catalogue.ts';

function captured() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) } },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-scenario-cli-'));
afterAll(() => fs.rmSync(reports, { recursive: true, force: true }));

describe('chaoslua scenario', () => {
  it('lists every scenario with the row it reproduces', async () => {
    const c = captured();
    expect(await run(['list'], c.io)).toBe(0);
    for (const s of SCENARIOS) expect(c.out()).toContain(s.name);
    expect(c.out()).toContain('failure table');
  });

  it.each([
    [['run', 'no-such-scenario'], /unknown scenario 'no-such-scenario'/],
    [['run', 'hot-slot', '--bogus'], /--bogus/],
    [['run'], /give one scenario NAME, or --all/],
    [['run', 'hot-slot', '--all'], /not both/],
    [['frobnicate'], /unknown subcommand/],
  ])('exits 2 with one line for %j', async (argv, message) => {
    const c = captured();
    expect(await run(argv as string[], c.io)).toBe(2);
    expect(c.err()).toMatch(message as RegExp);
    expect(c.err().trim().split('\n')).toHaveLength(1);
  });

  it('runs one scenario, narrates it, prints JSON and writes its observations to a run folder', async () => {
    const c = captured();
    const code = await run(['run', 'hot-slot', '--json', '--report', reports], c.io);
    expect(code, c.err()).toBe(0);
    const result = JSON.parse(c.out());
    expect(result.passed).toBe(true);
    expect(result.results[0].broken.observations.bigTenantSlots).toBe(1);
    expect(c.err()).toContain('result: AS DOCUMENTED');
    const saved = JSON.parse(fs.readFileSync(path.join(result.report, 'hot-slot.json'), 'utf8'));
    expect(saved.remediated.held).toBe(true);
    expect(fs.existsSync(path.join(result.report, 'summary.json'))).toBe(true);
  }, 120_000);
});
