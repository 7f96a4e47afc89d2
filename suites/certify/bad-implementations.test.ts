import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cmdOpener, type OpenedProcessImpl } from '../../src/certify/openers/cmd.ts';
import { luaDirOpener } from '../../src/certify/openers/lua-dir.ts';
import { moduleOpener } from '../../src/certify/openers/module.ts';
import { removeReportRoots } from './fixtures/process/job.ts';
import {
  ERRORS_ONLY_CMD,
  ERRORS_ONLY_KINDS,
  errorsOnlyCases,
  expectNeverCertified,
  FIXTURES,
  job,
  junitCase,
} from './support/errors-only.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

// Implementations that never do anything: a history where nothing happened is trivially
// linearizable, so only the evidence rule keeps them from a certificate, whatever their kind. One
// pattern here; the same for the other two in bad-implementations.full.test.ts. And implementations
// that cannot be opened: a finding, a report, never a crash.

afterAll(() => removeReportRoots());

describe('an implementation whose every operation errors is never certified', () => {
  // lua: and cmd: here; module: (and the other patterns) in bad-implementations.full.test.ts.
  const kinds = ERRORS_ONLY_KINDS.filter(([kind]) => !kind.startsWith('module:'));
  it.each(errorsOnlyCases(['idempotency'], kinds))('%s', (_, pattern, open) =>
    expectNeverCertified(pattern, open(pattern)),
  );

  it('cmd: a program that answers CLUSTERDOWN to everything', async () => {
    const result = await job(
      'idempotency',
      cmdOpener(PATTERNS.idempotency, `${ERRORS_ONLY_CMD} --error 'CLUSTERDOWN The cluster is down'`),
    );
    expect(result.evidence.operations.every((o) => o.ok === 0 && o.fail === o.issued)).toBe(true); // refused before running: fail
    expect(result.findings[0]).toMatch(/^evidence: no operation succeeded: 0 of \d+ ok/);
    expect(result.passed).toBe(false);
  });
});

describe('an implementation that cannot be opened is a finding with a report', () => {
  it("a script Redis refuses to load (--no-lint): Redis's message, junit.xml written, not certified", async () => {
    const dir = path.join(FIXTURES, 'refused-lua');
    const result = await job('idempotency', luaDirOpener(PATTERNS.idempotency, dir, `lua:${dir}`));
    expect(result.findings).toEqual([
      expect.stringMatching(/^script-load: could not load .*renew\.lua on .*: ERR Error compiling script/),
    ]);
    expect(result.passed).toBe(false);
    expect(result.outcome.tally.runs).toBe(0);
    expect(junitCase(result.dir, 'implementation-behaviour')).toMatch(/^script-load: /);
    expect(JSON.parse(fs.readFileSync(path.join(result.dir, 'result.json'), 'utf8')).passed).toBe(false);
  });

  it("a module whose createStore never resolves: a finding once the handshake's limit passes", async () => {
    const file = path.join(FIXTURES, 'hanging-create-store.ts');
    const result = await job('lock', moduleOpener(PATTERNS.lock, file, { createTimeoutMs: 1_000 }));
    expect(result.findings).toEqual([
      `module-create-store: module:${file}: createStore did not resolve within 1000 ms`,
    ]);
    expect(result.passed).toBe(false);
  });
});

describe('cmd: the temp stderr.log', () => {
  it('is removed once copied into the report folder', async () => {
    let opened: OpenedProcessImpl | undefined;
    const open = cmdOpener(PATTERNS.idempotency, ERRORS_ONLY_CMD);
    const result = await job('idempotency', async (c, n) => (opened = await open(c, n)), 1);
    expect(fs.existsSync(path.join(result.dir, 'implementation-stderr.log'))).toBe(true);
    expect(opened!.stderrFile).toMatch(/chaoslua-cmd-/);
    expect(fs.existsSync(path.dirname(opened!.stderrFile))).toBe(false);
  });

  it('a crash finding names the copy kept in the run folder, not the temp file removed', async () => {
    const result = await job(
      'idempotency',
      cmdOpener(PATTERNS.idempotency, `echo 'boom: it fell over' >&2; exit 3`),
      1,
    );
    const kept = path.join(result.dir, 'implementation-stderr.log');
    expect(result.findings).toEqual([expect.stringContaining(`stderr (${kept}) ends: boom: it fell over`)]);
    expect(fs.readFileSync(kept, 'utf8')).toContain('boom: it fell over');
  });
});
