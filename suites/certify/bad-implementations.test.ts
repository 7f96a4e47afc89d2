import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../src/certify/job.ts';
import { cmdOpener, type OpenedProcessImpl } from '../../src/certify/openers/cmd.ts';
import { luaDirOpener } from '../../src/certify/openers/lua-dir.ts';
import { moduleOpener } from '../../src/certify/openers/module.ts';
import type { ImplOpener } from '../../src/certify/types.ts';
import { LocalCluster } from '../../src/cluster/local.ts';
import type { PatternName } from '../../src/patterns/index.ts';
import { certifyOptions, quietIo, removeReportRoots } from './fixtures/process/job.ts';

// Implementations that never do anything (issue 11): a history where nothing happened is trivially
// linearizable, so only the evidence rule keeps them from a certificate, whatever their kind and
// pattern. And implementations that cannot be opened: a finding, a report, never a crash.

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/bad-impls');
const ERRORS_ONLY_CMD = `${process.execPath} ${FIXTURES}/errors-only.mjs`;
const PATTERNS: PatternName[] = ['idempotency', 'lock', 'ratelimit'];

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await LocalCluster.start();
});
afterAll(async () => {
  removeReportRoots();
  await cluster?.dispose();
});

const job = (pattern: PatternName, open: ImplOpener, runs = 3) =>
  runJob(certifyOptions({ pattern, runs: String(runs), seed: '11', faults: 'all', 'shrink-runs': '0' }), open, quietIo, cluster);

/** A junit.xml case: name and failure message, if failed. */
const junitCase = (dir: string, name: string) => new RegExp(`name="${name}"[^>]*>\\s*<failure message="([^"]*)"`).exec(fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8'))?.[1];

describe('an implementation whose every operation errors is never certified', () => {
  const kinds: [string, (p: PatternName) => ImplOpener][] = [
    ['lua: scripts that return an error reply', (p) => luaDirOpener(p, path.join(FIXTURES, 'errors-only-lua', p), `lua:errors-only-${p}`)],
    ['module: a store whose calls all throw', (p) => moduleOpener(p, path.join(FIXTURES, 'errors-only-store.ts'))],
    ['cmd: a program that answers every request with an error', (p) => cmdOpener(p, ERRORS_ONLY_CMD)],
  ];
  const cases = kinds.flatMap(([kind, open]) => PATTERNS.map((p) => [`${kind} (${p})`, p, open] as const));

  it.each(cases)('%s', async (_, pattern, open) => {
    const result = await job(pattern, open(pattern));
    const issued = result.evidence.operations.reduce((n, o) => n + o.issued, 0);
    expect(issued).toBe(result.outcome.tally.ops);
    expect(issued).toBeGreaterThan(0);
    expect(result.outcome.tally.runs).toBe(3);
    expect(result.invariants.every((s) => s.passed)).toBe(true); // nothing happened, so nothing was violated
    expect(result.findings).toEqual([`evidence: no operation succeeded: 0 of ${issued} ok (a budget of 3 runs may be too small for the evidence a certificate needs: the thresholds hold with the default 40)`]);
    expect(result.passed).toBe(false);
    expect(junitCase(result.dir, 'evidence')).toMatch(/^evidence: no operation succeeded: 0 of \d+ ok/);
  });

  it('cmd: a program that answers CLUSTERDOWN to everything', async () => {
    const result = await job('idempotency', cmdOpener('idempotency', `${ERRORS_ONLY_CMD} --error 'CLUSTERDOWN The cluster is down'`));
    expect(result.evidence.operations.every((o) => o.ok === 0 && o.fail === o.issued)).toBe(true); // refused before running: fail
    expect(result.findings[0]).toMatch(/^evidence: no operation succeeded: 0 of \d+ ok/);
    expect(result.passed).toBe(false);
  });
});

describe('an implementation that cannot be opened is a finding with a report', () => {
  it('a script Redis refuses to load (--no-lint): Redis\'s message, junit.xml written, not certified', async () => {
    const dir = path.join(FIXTURES, 'refused-lua');
    const result = await job('idempotency', luaDirOpener('idempotency', dir, `lua:${dir}`));
    expect(result.findings).toEqual([expect.stringMatching(/^script-load: could not load .*renew\.lua on .*: ERR Error compiling script/)]);
    expect(result.passed).toBe(false);
    expect(result.outcome.tally.runs).toBe(0);
    expect(junitCase(result.dir, 'implementation-behaviour')).toMatch(/^script-load: /);
    expect(JSON.parse(fs.readFileSync(path.join(result.dir, 'result.json'), 'utf8')).passed).toBe(false);
  });

  it("a module whose createStore never resolves: a finding once the handshake's limit passes", async () => {
    const file = path.join(FIXTURES, 'hanging-create-store.ts');
    const result = await job('lock', moduleOpener('lock', file, { createTimeoutMs: 1_000 }));
    expect(result.findings).toEqual([`module-create-store: module:${file}: createStore did not resolve within 1000 ms`]);
    expect(result.passed).toBe(false);
  });
});

describe('cmd: the temp stderr.log', () => {
  it('is removed once copied into the report folder', async () => {
    let opened: OpenedProcessImpl | undefined;
    const open = cmdOpener('idempotency', ERRORS_ONLY_CMD);
    const result = await job('idempotency', async (c, n) => (opened = await open(c, n)), 1);
    expect(fs.existsSync(path.join(result.dir, 'implementation-stderr.log'))).toBe(true);
    expect(opened!.stderrFile).toMatch(/chaoslua-cmd-/);
    expect(fs.existsSync(path.dirname(opened!.stderrFile))).toBe(false);
  });
});
