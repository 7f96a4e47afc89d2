/**
 * The clocks on the report page: a clock row per node a clock fault moved and per client
 * client-clock skewed (on a real counterexample whose history carries both, suites/report/fixtures),
 * clock losses shown apart from violations with the clocks that explain them, and the header's
 * count and clock assumption lines.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { FaultRecord, OpRecord } from '../../../src/history/types.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../../../src/patterns/idempotency/model.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';
import { writeCheckFolder } from '../../../src/report/check-folder.ts';
import type { Counterexample } from '../../../src/report/counterexample.ts';
import { readReportData, type RunSummary } from '../../../src/report/html/data.ts';
import { esc } from '../../../src/report/html/escape.ts';
import { renderReport } from '../../../src/report/html/page.ts';

const FIXTURES = new URL('../../report/fixtures/', import.meta.url).pathname;
const CLOCKS = '20261206-202259-run-clock';
const read = <T>(file: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, CLOCKS, file), 'utf8')) as T;
const count = (html: string, re: RegExp) => [...html.matchAll(re)].length;

type Op = OpRecord<IdempotencyInput, IdempotencyOutput>;
const register = (id: number, client: number, owner: string, at: [number, number]): Op => ({
  type: 'op',
  id,
  client,
  key: 'k',
  input: { op: 'register', fingerprint: 'fp', owner, leaseMs: 1_000 },
  invokedAt: at[0],
  completedAt: at[1],
  outcome: 'ok',
  output: ['fresh'],
});

/** A took the key for 1 s, B took it 300 ms later: legal only because n1's clock jumped a second ahead. */
function clockLossCounterexample(): Counterexample {
  const jump: FaultRecord = {
    type: 'fault',
    id: 9,
    kind: 'clock-jump',
    target: 'node 1 (master of 0-5460)',
    startedAt: 100,
    endedAt: 400,
    lossy: false,
    detail: '',
    clockOffsets: [{ at: 100, node: 'n1', offsetMs: 1_000 }],
  };
  const history = {
    ops: [register(0, 1, 'A', [0, 10]), register(1, 2, 'B', [300, 310])],
    faults: [jump],
    topology: [],
  };
  const result = check(history, PATTERNS.idempotency);
  expect(result.verdict).toBe('clock-loss');
  return { ...read<Counterexample>('counterexample.json'), history, result } as Counterexample;
}

describe('the clocks on the report page', () => {
  it("draws each moved node's offset and each skewed client's, beside the operations", () => {
    const ce = read<Counterexample>('counterexample.json');
    const html = renderReport({
      dir: `reports/${CLOCKS}`,
      result: read<RunSummary>('result.json'),
      counterexample: ce,
    });
    expect([...html.matchAll(/<polyline class="clock-line" data-clock-node="(\w+)"/g)].map((m) => m[1])).toEqual([
      'n2',
      'n1',
      'n4',
    ]);
    expect([...html.matchAll(/data-clock-client="(\d+)"/g)].map((m) => m[1])).toEqual(['0', '1']);
    expect(html).toContain('>n2 +1000 ms from 140.6 ms to 668.4 ms</text>');
    expect(html).toContain('>n1 strobed 0 ↔ −100 ms (10 steps) from 780.3 ms to 1.30 s</text>');
    expect(html).toContain('>n4 drifted to +30 ms from 1.24 s to 1.43 s</text>');
    expect(html).toContain('>c0 +41 ms all run (not reached)</text>');
    expect(html).toContain('>scale ±1000 ms</text>');
    // A client's offset holds all run: its clock row shows it, not a band over every lane.
    const serverClockFaults = ce.history.faults.filter((f) => f.kind !== 'client-clock').length;
    expect(serverClockFaults).toBe(3);
    expect(count(html, /<rect class="fault /g)).toBe(serverClockFaults);
    expect(count(html, /<rect class="fault f-clock"/g)).toBe(3);
    expect(html).toContain('clock offset (true = dashed 0)');
    // The clients' lanes are still one per client, below the clock rows.
    expect(count(html, /<text class="lane client"/g)).toBe(new Set(ce.history.ops.map((o) => o.client)).size);
  });

  it('draws no clock row for a history whose clocks never moved', () => {
    const ce = read<Counterexample>('counterexample.json');
    const history = { ...ce.history, faults: [] };
    const html = renderReport({ dir: 'x', result: {}, counterexample: { ...ce, history } });
    expect(html).toContain('id="tl-plot"');
    expect(html).not.toMatch(/<(polyline|line) class="clock-line/);
    expect(html).not.toContain('clock offset (true');
  });

  it('shows a clock loss like a replication loss: apart from violations, with its sentence and the clocks that explain it', () => {
    const ce = clockLossCounterexample();
    const html = renderReport({ dir: 'x', result: { command: 'check', pattern: 'idempotency' }, counterexample: ce });
    const loss = ce.result.clockLosses![0];
    expect(html).toContain('<div class="card" id="clock-losses"><b>Clock losses</b>');
    expect(html).toContain(esc(loss.message));
    expect(html).toContain('explained by clock-jump (n1 +1000 ms from 100 ms to 400 ms)');
    expect(count(html, /<span class="wref mono" data-op-id="\d+">op \d+<\/span>/g)).toBe(loss.witness.length);
    expect(html).not.toContain('class="card violation"');
    expect(html).toContain('<td class="verdict-clock-loss">clock-loss</td>');
    expect(html).toContain('<dt>clock losses</dt><dd>1 key(s)</dd>');
    expect(html).toContain('data-clock-node="n1"');
  });

  it("counts a job's clock losses, lists their notes, and states the clock assumption in the header", () => {
    const result: RunSummary = {
      command: 'certify',
      passed: true,
      pattern: 'idempotency',
      clockLosses: 2,
      clockLossNotes: [
        "run 3, key k0: one-winner ... Explained by clock loss: n2's clock stepped +1000 ms",
        'run 9, key k1: ...',
      ],
      clocks: [
        'a server clock may step by up to ±5 s, on a master, on a replica, and on a replica then promoted',
        'a server clock may strobe between true and ±1 s every 50 ms',
      ],
    };
    const html = renderReport({ dir: 'x', result });
    expect(html).toContain('<dt>clock losses</dt><dd>2</dd>');
    expect(count(html, /<div class="card" id="clock-loss-notes">/g)).toBe(1);
    expect(html).toContain(esc(result.clockLossNotes![0]));
    expect(html).toMatch(
      /<ul class="clocks" id="clock-assumption"><li>a server clock may step by up to ±5 s[^<]*<\/li><li>a server clock may strobe[^<]*<\/li><\/ul>/,
    );
    const skewed = renderReport({
      dir: 'x',
      result: { ...result, clientClocks: "each client's clock offset within ±50 ms; Date.now()" },
    });
    expect(skewed).toContain('<li>clients: each client&#39;s clock offset within ±50 ms; Date.now()</li></ul>');

    const plain = renderReport({ dir: 'x', result: { command: 'certify', passed: true, pattern: 'idempotency' } });
    expect(plain).not.toContain('clock losses');
    expect(plain).not.toContain('id="clock-assumption"');
    expect(plain).not.toContain('id="clock-loss-notes"');
  });

  it('shows the clock losses of a checked history, which passes and so keeps no timeline', () => {
    const ce = clockLossCounterexample();
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-clock-check-'));
    try {
      const dir = writeCheckFolder(root, {
        file: 'h.json',
        format: 'chaoslua',
        model: 'idempotency',
        history: ce.history,
        result: ce.result,
        passed: true,
      });
      const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
      expect(html).toMatch(/<h1 id="verdict">PASSED<\/h1>/);
      expect(html).toContain('<dt>clock losses</dt><dd>1</dd>');
      expect(html).toContain(`<li>${esc(`key k: ${ce.result.clockLosses![0].message}`)}</li>`);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("reads the client clock line from the folder's certificate.json when result.json has none, and survives one it cannot read", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-clock-cert-'));
    try {
      fs.writeFileSync(path.join(root, 'result.json'), JSON.stringify({ command: 'certify', passed: true }));
      expect(readReportData(root).result.clientClocks).toBeUndefined();
      fs.writeFileSync(
        path.join(root, 'certificate.json'),
        JSON.stringify({ clientClocks: 'within ±50 ms; reach: Date.now()' }),
      );
      expect(readReportData(root).result.clientClocks).toBe('within ±50 ms; reach: Date.now()');
      fs.writeFileSync(path.join(root, 'certificate.json'), '{ not json');
      expect(readReportData(root).result.clientClocks).toBeUndefined();
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
