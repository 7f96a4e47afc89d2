import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Counterexample } from '../../../src/report/counterexample.ts';
import type { ReportData, RunSummary } from '../../../src/report/html/data.ts';
import { esc } from '../../../src/report/html/escape.ts';
import { renderReport } from '../../../src/report/html/page.ts';
import { parseMetrics } from '../../../src/report/metrics-file.ts';

/** Real run folders, captured once (see suites/report/fixtures/README.md). */
const FIXTURES = new URL('../../report/fixtures/', import.meta.url).pathname;
const read = (run: string, file: string) => fs.readFileSync(path.join(FIXTURES, run, file), 'utf8');
const FAILING = '20261130-081012-run-7';
const PASSING = '20261130-080448-run-1';

function failing(): ReportData {
  return {
    dir: `reports/${FAILING}`,
    result: JSON.parse(read(FAILING, 'result.json')) as RunSummary,
    counterexample: JSON.parse(read(FAILING, 'counterexample.json')) as Counterexample,
    metrics: parseMetrics(read(FAILING, 'metrics.prom')),
  };
}

const count = (html: string, re: RegExp) => [...html.matchAll(re)].length;

describe('renderReport', () => {
  it('shows a failure: verdict, sentence, witnesses, one lane per client, replay command', () => {
    const data = failing();
    const html = renderReport(data);
    const ce = data.counterexample!;
    expect(html).toMatch(/<h1 id="verdict">FAILED<\/h1>/);
    expect(html).toContain(`chaoslua replay reports/${FAILING}/counterexample.json`);
    expect(html).toContain(`<p class="sentence">${esc(ce.result.violations[0].message)}</p>`);
    const witnessIds = new Set(ce.result.violations.flatMap((v) => v.witness.map((o) => o.id)));
    expect(count(html, /<rect class="op [a-z]+ witness[^"]*" data-op-id="(\d+)"/g)).toBe(witnessIds.size);
    expect(count(html, /<text class="lane client"/g)).toBe(new Set(ce.history.ops.map((o) => o.client)).size);
    expect(count(html, /<rect class="op /g)).toBe(ce.history.ops.length);
    expect(html).toContain('longest linearizable prefix: ');
    expect(html).toContain('first op no order could explain');
    expect(html).toContain('absent → pending by register');
  });

  it('marks a race the run staged: named above the timeline, its operation marked, the two lanes named', () => {
    const data = failing();
    const ce = data.counterexample!;
    // The fixture predates races: stage one on its first client's second operation, against another client.
    const [holder, contender] = [...new Set(ce.history.ops.map((o) => o.client))];
    const race = {
      name: "release at its lease's end",
      instant: 'lease-end' as const,
      key: 0,
      holder,
      op: 1,
      contender,
    };
    const html = renderReport({ ...data, counterexample: { ...ce, schedule: { ...ce.schedule, race } } });
    expect(html).toContain(
      `Race staged at a critical instant: release at its lease&#39;s end on k0: c${holder}&#39;s operation #1 against c${contender}.`,
    );
    expect(count(html, /<text class="mark race-mark"[^>]*>⚡<\/text>/g)).toBe(1);
    expect(html).toContain(`client ${holder} (racer)`);
    expect(html).toContain(`client ${contender} (contender)`);
    expect(renderReport(data)).not.toContain('⚡');
  });

  it('reads the SRE checklist from metrics.prom and flags nothing it has no number for', () => {
    const html = renderReport(failing());
    expect(html).toContain('data-metric="idempotency_noscript_total"');
    expect(html).toMatch(
      /data-metric="idempotency_stale_completion_rejected_total"><h3>[^<]+<\/h3><div class="big" data-value="\d+"/,
    );
    expect(html).toContain('15 ms alert');
    expect(html).toContain('64 KB alert');
    const partial = renderReport({
      ...failing(),
      metrics: parseMetrics('# TYPE idempotency_noscript_total counter\nidempotency_noscript_total 3\n'),
    });
    expect(partial).toMatch(/data-metric="idempotency_noscript_total"><h3>[^<]+<\/h3><div class="big" data-value="3"/);
    expect(partial).toContain('not recorded (<code>idempotency_body_bytes</code>');
    const none = renderReport({ ...failing(), metrics: undefined });
    expect(none).toContain('No metrics were recorded for this run');
    expect(none).not.toContain('data-metric=');
  });

  it('shows a pass without a timeline and with the re-run command', () => {
    const html = renderReport({
      dir: `reports/${PASSING}`,
      result: JSON.parse(read(PASSING, 'result.json')) as RunSummary,
      metrics: parseMetrics(read(PASSING, 'metrics.prom')),
    });
    expect(html).toMatch(/<h1 id="verdict">PASSED<\/h1>/);
    expect(html).toContain('chaoslua run --pattern idempotency --seed 1 --runs 5');
    expect(html).not.toContain('id="tl-plot"');
    expect(html).toContain('id="no-coverage"');
  });

  it('escapes whatever the history holds', () => {
    const data = failing();
    const ce = data.counterexample!;
    const evil = '</script><img src=x onerror=alert(1)>';
    const ops = ce.history.ops.map((o) => ({ ...o, key: evil, input: { ...(o.input as object), owner: evil } }));
    const html = renderReport({ ...data, counterexample: { ...ce, history: { ...ce.history, ops } } });
    expect(html).not.toContain('<img src=x');
    expect(count(html, /<\/script>/g)).toBe(2); // the JSON blob's and the page script's own
  });
});
