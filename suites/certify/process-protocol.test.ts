import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cmdOpener, type OpenedProcessImpl } from '../../src/certify/openers/cmd.ts';
import { runJob } from '../../src/certify/job.ts';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import {
  behaviourFindings,
  certifyOptions,
  counting,
  quietIo,
  removeReportRoots,
  reportRoot,
} from './fixtures/process/job.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

// cmd: certification against misbehaving programs: each misbehaviour is its own finding, the job
// fails (passed false) instead of hanging, and the program is gone afterwards.

let cluster: LocalCluster;

const FIXTURE = path.join(import.meta.dirname, 'fixtures/process/reference.mjs');
let tags = 0;
const uniqueTag = () => `t${process.pid}x${++tags}x${Date.now()}`;

/** Processes whose command line contains `tag` (the program and anything it started). */
function processesWith(tag: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(tag)) found.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return found;
}

// Misbehaving programs are caught fast with a short request timeout; a well-behaved one under every
// fault needs the default, above the longest legitimate wait (a 2.5 s node freeze plus failover).
async function certify(command: string, flags: Parameters<typeof certifyOptions>[0] = {}, requestTimeoutMs = 1_500) {
  let opened: OpenedProcessImpl | undefined;
  const open = cmdOpener(PATTERNS.idempotency, command, {
    requestTimeoutMs,
    handshakeTimeoutMs: 5_000,
    stderrFile: path.join(reportRoot(), 'stderr.log'),
  });
  const counted = counting(async (cluster, clients) => (opened = await open(cluster, clients)));
  const result = await runJob(
    certifyOptions({ runs: '2', seed: '11', faults: 'none', clients: '2', keys: '1', ...flags }),
    counted.open,
    quietIo,
    cluster,
  );
  return { result, opened: opened!, answers: counted.answers };
}

beforeAll(async () => {
  cluster = await sharedCluster();
});

afterAll(async () => {
  removeReportRoots();
});

describe('cmd: with a well-behaved program', () => {
  it('certifies a program that delegates to the reference scripts, under every fault', async () => {
    const tag = uniqueTag();
    const { result, answers } = await certify(
      `node ${FIXTURE} --tag ${tag}`,
      { runs: '3', faults: 'all', clients: undefined, keys: undefined },
      15_000,
    );
    expect(answers.ok).toBeGreaterThan(answers.errors.length);
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.outcome.failure).toBeUndefined();
    expect(result.outcome.tally.runs).toBe(3); // judged, not discarded
    expect(result.impl).toContain('(reference-fixture 1)');
    expect(result.outcome.tally.ops).toBeGreaterThan(0);
    expect(result.outcome.tally.faults).toBeGreaterThan(0);
    expect(processesWith(tag)).toEqual([]);
    // A cmd: program keeps its own metrics: the run folder has no metrics.prom (docs/run-folder.md
    // says so), and the report page says none were recorded rather than showing empty panels.
    expect(fs.existsSync(path.join(result.dir, 'metrics.prom'))).toBe(false);
    expect(fs.readFileSync(path.join(result.dir, 'report.html'), 'utf8')).toContain(
      'No metrics were recorded for this run',
    );
  });
});

describe('cmd: with a misbehaving program', () => {
  const cases: [string, RegExp][] = [
    [
      'malformed',
      /^malformed output: stdout line \d+ is not JSON: "this is not json" \(stdout carries protocol messages only/,
    ],
    ['unknown-id', /^protocol violation: response to unknown request id 100000\d+$/],
    ['duplicate', /^protocol violation: a second response to request \d+$/],
    [
      'crash',
      /^crash: the implementation exited with code 7 with \d+ request\(s\) in flight; stderr \(.+\) ends: fixture: crashing on purpose$/,
    ],
    ['silent', /^hang: no response to request \d+ \(\w+ on idem:v1:\{.+\}\) within 1500 ms$/],
    ['refuse', /^handshake refused by the implementation: this fixture refuses every handshake$/],
    [
      'wrong-version',
      /^handshake: the implementation speaks "chaoslua-process\/0", the harness speaks "chaoslua-process\/1" or "chaoslua-process\/1.1"$/,
    ],
  ];
  it.each(cases)('%s: one finding, not certified, no false violation, process gone', async (mode, finding) => {
    const tag = uniqueTag();
    const { result, answers } = await certify(`node ${FIXTURE} --misbehave ${mode} --after 3 --tag ${tag}`);
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatch(finding);
    expect(result.passed).toBe(false);
    // Requests cut off by the misbehaviour were recorded as indeterminate, so the checker has nothing to object to.
    expect(result.outcome.failure).toBeUndefined();
    expect(processesWith(tag)).toEqual([]);
    // After the finding, requests fail at once with the reason (no wait on a dead program).
    expect(answers.errors.at(-1)).toMatch(/^implementation process unavailable: /);
    const junit = fs.readFileSync(path.join(result.dir, 'junit.xml'), 'utf8');
    expect(junit).toContain('implementation-behaviour');
  });

  it('a command that does not exist fails before the handshake, naming the shell error', async () => {
    const { result, opened } = await certify('chaoslua-no-such-program --flag', { runs: '1' });
    expect(result.passed).toBe(false);
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatch(
      /^crash: the implementation exited with code 127 before answering the handshake; stderr \(.+\) ends: .*chaoslua-no-such-program: not found/,
    );
    expect(fs.readFileSync(opened.stderrFile, 'utf8')).toContain('not found');
  });

  it('a program that never answers the handshake is killed after the handshake timeout', async () => {
    const seconds = `3${process.pid % 1000}.25`;
    const open = cmdOpener(PATTERNS.idempotency, `sleep ${seconds}`, {
      handshakeTimeoutMs: 1_000,
      stderrFile: path.join(reportRoot(), 'stderr.log'),
    });
    const opened = await open(cluster, 2);
    try {
      expect(opened.findings()).toEqual(['handshake: no hello reply within 1000 ms']);
      await expect(opened.subjects[1].invoke('k', { op: 'release', owner: 'o' })).rejects.toThrow(
        /^implementation process unavailable: handshake/,
      );
    } finally {
      await opened.close();
    }
    expect(processesWith(`sleep ${seconds}`)).toEqual([]);
  });
});
