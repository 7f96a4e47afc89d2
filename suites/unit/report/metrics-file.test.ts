import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  counterTotal,
  formatMetrics,
  histogramQuantile,
  histogramSeries,
  mergeMetrics,
  parseMetrics,
  readMetricsFile,
  writeMetricsFile,
} from '../../../src/report/metrics-file.ts';
import { IdempotencyMetrics } from '../../../src/patterns/idempotency/metrics.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-metrics-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** The reference client's own registry (prom-client), fed known observations. */
async function registryText(durations: number[], stale: number): Promise<string> {
  const m = new IdempotencyMetrics();
  for (const ms of durations) m.scriptDuration.observe({ script: 'register_or_get' }, ms);
  m.noscript.inc({ script: 'complete' });
  m.staleCompletionRejected.inc({ script: 'complete' }, stale);
  m.bodyBytes.observe(100);
  m.bodyBytes.observe(70_000);
  m.memoryUsed.set({ node: '127.0.0.1:7000' }, 2_000_000);
  m.memoryMax.set({ node: '127.0.0.1:7000' }, 0);
  return m.text();
}

describe('metrics parser', () => {
  it('reads prom-client counters, gauges and histograms', async () => {
    const metrics = parseMetrics(await registryText([0.3, 0.7, 3, 12, 17], 4));
    expect(metrics.get('idempotency_script_duration_ms')?.type).toBe('histogram');
    expect(counterTotal(metrics, 'idempotency_noscript_total')).toBe(1);
    expect(counterTotal(metrics, 'idempotency_stale_completion_rejected_total')).toBe(4);
    expect(counterTotal(metrics, 'idempotency_lease_expired_while_pending_total')).toBe(0);
    expect(counterTotal(metrics, 'no_such_metric_total')).toBeUndefined();
    const [reg] = histogramSeries(metrics, 'idempotency_script_duration_ms');
    expect(reg.labels).toEqual({ script: 'register_or_get' });
    expect(reg.count).toBe(5);
    expect(reg.sum).toBeCloseTo(33, 6);
    expect(reg.buckets.find((b) => b.le === 15)?.count).toBe(4);
    expect(reg.buckets.at(-1)).toEqual({ le: Infinity, count: 5 });
    const [body] = histogramSeries(metrics, 'idempotency_body_bytes');
    expect(body.labels).toEqual({});
    expect(body.buckets.find((b) => b.le === 65536)?.count).toBe(1);
    expect(metrics.get('redis_memory_used_bytes')?.samples[0]).toEqual({
      name: 'redis_memory_used_bytes',
      labels: { node: '127.0.0.1:7000' },
      value: 2_000_000,
    });
  });

  it('computes quantiles as Prometheus histogram_quantile does', () => {
    const buckets = [
      { le: 1, count: 10 },
      { le: 2, count: 20 },
      { le: 4, count: 20 },
      { le: Infinity, count: 20 },
    ];
    expect(histogramQuantile(0.5, buckets)).toBe(1);
    expect(histogramQuantile(0.75, buckets)).toBe(1.5);
    expect(histogramQuantile(0.25, buckets)).toBe(0.5);
    // A rank in the +Inf bucket answers the highest finite bound.
    expect(
      histogramQuantile(0.99, [
        { le: 1, count: 1 },
        { le: Infinity, count: 10 },
      ]),
    ).toBe(1);
    expect(
      histogramQuantile(0.5, [
        { le: 1, count: 0 },
        { le: Infinity, count: 0 },
      ]),
    ).toBeNaN();
  });

  it('unescapes label values and reads special values', () => {
    const m = parseMetrics('# TYPE x gauge\nx{a="q\\"uo\\\\te\\nnl",b="2"} +Inf 1700000000\nx{a="z"} NaN\n');
    const [first, second] = m.get('x')?.samples ?? [];
    expect(first.labels).toEqual({ a: 'q"uo\\te\nnl', b: '2' });
    expect(first.value).toBe(Infinity);
    expect(second.value).toBeNaN();
    expect(parseMetrics(formatMetrics(m)).get('x')?.samples[0].labels.a).toBe('q"uo\\te\nnl');
  });

  it('names the line of a malformed sample', () => {
    expect(() => parseMetrics('# TYPE x counter\nx{a="1" 3\n')).toThrow(/line 2/);
    expect(() => parseMetrics('x 12abc\n')).toThrow(/line 1: bad value/);
  });
});

describe('metrics.prom', () => {
  it('writes one registry verbatim and reads it back', async () => {
    const dir = tmp();
    const text = await registryText([1, 2], 1);
    const file = writeMetricsFile(dir, text);
    expect(fs.readFileSync(file, 'utf8')).toBe(text.endsWith('\n') ? text : text + '\n');
    expect(counterTotal(readMetricsFile(dir)!, 'idempotency_stale_completion_rejected_total')).toBe(1);
    expect(readMetricsFile(tmp())).toBeUndefined();
  });

  it('merges the registries of several clients: counters and histograms add, a gauge keeps the last value', async () => {
    const dir = tmp();
    writeMetricsFile(dir, [await registryText([1, 20], 2), await registryText([3], 5)]);
    const m = readMetricsFile(dir)!;
    expect(counterTotal(m, 'idempotency_stale_completion_rejected_total')).toBe(7);
    expect(counterTotal(m, 'idempotency_noscript_total')).toBe(2);
    const [reg] = histogramSeries(m, 'idempotency_script_duration_ms');
    expect(reg.count).toBe(3);
    expect(reg.buckets.find((b) => b.le === 15)?.count).toBe(2);
    expect(m.get('redis_memory_used_bytes')?.samples).toHaveLength(1);
    expect(
      mergeMetrics([parseMetrics('# TYPE g gauge\ng 1\n'), parseMetrics('# TYPE g gauge\ng 4\n')]).get('g')?.samples[0]
        .value,
    ).toBe(4);
  });
});
