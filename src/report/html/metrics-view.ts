/**
 * The seed's SRE / observability checklist, read from the run's metrics.prom. A metric the file
 * does not hold is shown as "not recorded", never as zero: no number on this page is invented.
 */
import {
  counterTotal,
  histogramQuantile,
  histogramSeries,
  type HistogramSeries,
  type Metrics,
} from '../metrics-file.ts';
import { esc, r1 } from './escape.ts';

/** Seed 000: alert if register_or_get p99 exceeds 15 ms; if the body p99 exceeds 64 KB. */
export const LATENCY_ALERT_MS = 15;
export const BODY_ALERT_BYTES = 65_536;

export function renderMetrics(metrics: Metrics | undefined, pattern: string | undefined): string {
  if (!metrics) {
    return '<p class="muted" id="no-metrics">No metrics were recorded for this run (the folder has no metrics.prom), so none are shown.</p>';
  }
  // A folder that names no pattern was written before there were others: the idempotency store's.
  const prefix = pattern ?? 'idempotency';
  const latencyName =
    [...metrics.keys()].find((n) => n === `${prefix}_script_duration_ms`) ??
    [...metrics.keys()].find((n) => n.endsWith('_script_duration_ms'));
  const cards = [
    latencyCard(metrics, latencyName),
    counterCard(
      metrics,
      latencyName ? latencyName.replace(/_script_duration_ms$/, '_noscript_total') : `${prefix}_noscript_total`,
      'NOSCRIPT fallbacks',
      'Expected to spike at failover or SCRIPT FLUSH and return to zero; a steady rate means something keeps flushing the script cache.',
    ),
    counterCard(
      metrics,
      'idempotency_stale_completion_rejected_total',
      'Stale completions rejected',
      'Owner-check refusals in complete and release. Non-zero proves frozen workers exist and the check protected the key.',
    ),
    counterCard(
      metrics,
      'idempotency_lease_expired_while_pending_total',
      'Leases expired while pending',
      'Any value means handlers outlived their leases.',
    ),
    bodyCard(metrics),
    memoryCard(metrics),
  ];
  return `<div class="metrics">${cards.join('\n')}</div>`;
}

function notRecorded(title: string, name: string): string {
  return `<div class="card metric" data-metric="${esc(name)}"><h3>${esc(title)}</h3><p class="muted">not recorded (<code>${esc(name)}</code> is not in metrics.prom)</p></div>`;
}

function latencyCard(metrics: Metrics, name: string | undefined): string {
  const title = 'Script latency (client-observed)';
  if (!name) return notRecorded(title, 'idempotency_script_duration_ms');
  const series = histogramSeries(metrics, name).filter((s) => s.count > 0 || s.buckets.length > 0);
  if (series.length === 0)
    return `<div class="card metric" data-metric="${esc(name)}"><h3>${title}</h3><p class="muted">recorded, but no script was called</p></div>`;
  const charts = series.map((s) => {
    const script = s.labels.script ?? Object.values(s.labels).join(',') ?? '';
    const p50 = histogramQuantile(0.5, s.buckets);
    const p99 = histogramQuantile(0.99, s.buckets);
    const over = p99 > LATENCY_ALERT_MS;
    // The seed's alert is on register_or_get; other scripts get the same line for comparison.
    const alerting =
      over && (script === 'register_or_get' || !series.some((x) => x.labels.script === 'register_or_get'));
    return `<div class="series" data-script="${esc(script)}"><div><b>${esc(script)}</b> · ${s.count} calls · p50 <b class="p50">${fmtMs(p50)}</b> · p99 <b class="p99 ${over ? 'alert' : ''}">${fmtMs(p99)}</b>${alerting ? ' <span class="alert">▲ over the 15 ms alert</span>' : ''}</div>
${histogramSvg(s, { alertAt: LATENCY_ALERT_MS, alertLabel: `${LATENCY_ALERT_MS} ms alert`, format: (le) => (le >= 1000 ? `${le / 1000}s` : String(le)), p50, p99 })}</div>`;
  });
  return `<div class="card metric wide" data-metric="${esc(name)}"><h3>${title}</h3><div class="muted small">buckets in ms; dashed line: alert if register_or_get p99 exceeds ${LATENCY_ALERT_MS} ms (Lua runs on Redis's single thread: a slow script blocks everything)</div><div class="series-grid">${charts.join('')}</div></div>`;
}

function counterCard(metrics: Metrics, name: string, title: string, meaning: string): string {
  const total = counterTotal(metrics, name);
  if (total === undefined) return notRecorded(title, name);
  const family = metrics.get(name);
  const parts = (family?.samples ?? [])
    .filter((s) => Object.keys(s.labels).length > 0)
    .map((s) => `${Object.values(s.labels).join(',')} ${s.value}`);
  return `<div class="card metric" data-metric="${esc(name)}"><h3>${esc(title)}</h3><div class="big" data-value="${total}">${total}</div>${parts.length ? `<div class="muted small">${esc(parts.join(' · '))}</div>` : ''}<div class="small">${esc(meaning)}</div></div>`;
}

function bodyCard(metrics: Metrics): string {
  const name = 'idempotency_body_bytes';
  const title = 'Stored response sizes';
  const [s] = histogramSeries(metrics, name);
  if (!s) return notRecorded(title, name);
  const p50 = histogramQuantile(0.5, s.buckets);
  const p99 = histogramQuantile(0.99, s.buckets);
  const over = p99 > BODY_ALERT_BYTES;
  return `<div class="card metric" data-metric="${name}"><h3>${title}</h3><div>${s.count} bodies · p50 <b>${fmtBytes(p50)}</b> · p99 <b class="${over ? 'alert' : ''}">${fmtBytes(p99)}</b>${over ? ' <span class="alert">▲ over the 64 KB alert</span>' : ''}</div>
${histogramSvg(s, { alertAt: BODY_ALERT_BYTES, alertLabel: '64 KB alert', format: (le) => fmtBytes(le, true), p50, p99 })}</div>`;
}

function memoryCard(metrics: Metrics): string {
  const title = 'Redis memory vs maxmemory';
  const used = metrics.get('redis_memory_used_bytes');
  const max = metrics.get('redis_memory_max_bytes');
  if (!used || used.samples.length === 0) return notRecorded(title, 'redis_memory_used_bytes');
  const maxOf = new Map((max?.samples ?? []).map((s) => [s.labels.node, s.value]));
  const rows = used.samples.map((s) => {
    const node = s.labels.node ?? '';
    const limit = maxOf.get(node);
    const share = limit && limit > 0 ? s.value / limit : undefined;
    const bar =
      share === undefined
        ? ''
        : `<div class="mem"><span style="width:${Math.min(100, share * 100).toFixed(1)}%"></span></div>`;
    const text =
      limit === undefined
        ? 'maxmemory not recorded'
        : limit === 0
          ? 'no maxmemory (0 = no limit)'
          : `${(share! * 100).toFixed(1)}% of ${fmtBytes(limit)}`;
    return `<tr><td><code>${esc(node)}</code></td><td class="num">${fmtBytes(s.value)}</td><td>${esc(text)}${bar}</td></tr>`;
  });
  return `<div class="card metric" data-metric="redis_memory_used_bytes"><h3>${title}</h3><div class="small muted">Predicts eviction — on a deduplication store, silent loss of the guarantee.</div><table><thead><tr><th>master</th><th class="num">used</th><th>of maxmemory</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

interface ChartOptions {
  readonly alertAt: number;
  readonly alertLabel: string;
  readonly format: (le: number) => string;
  readonly p50: number;
  readonly p99: number;
}

/** Counts per bucket (not cumulative) as bars, the alert bound as a dashed line, p50/p99 as ticks. */
function histogramSvg(s: HistogramSeries, o: ChartOptions): string {
  const W = 360;
  const H = 122;
  const top = 14;
  const base = 84;
  const n = s.buckets.length;
  const bw = W / Math.max(1, n);
  const counts = s.buckets.map((b, i) => b.count - (i > 0 ? s.buckets[i - 1].count : 0));
  const peak = Math.max(1, ...counts);
  const bars = counts.map((c, i) => {
    const h = ((base - top) * c) / peak;
    const le = s.buckets[i].le;
    return `<rect class="bar" x="${r1(i * bw + 1)}" y="${r1(base - h)}" width="${r1(bw - 2)}" height="${r1(h)}"><title>≤ ${esc(le === Infinity ? '+Inf' : o.format(le))}: ${c}</title></rect>
<text class="axis" x="${r1(i * bw + bw / 2)}" y="${base + 12}" text-anchor="middle">${esc(le === Infinity ? '+Inf' : o.format(le))}</text>`;
  });
  // Positions on the bucket axis: bucket index plus the fraction inside it.
  const at = (v: number): number | undefined => {
    if (!Number.isFinite(v)) return undefined;
    let lower = 0;
    for (let i = 0; i < n; i++) {
      const le = s.buckets[i].le;
      if (v <= le) return (i + (le === Infinity || le === lower ? 1 : (v - lower) / (le - lower))) * bw;
      lower = le;
    }
    return undefined;
  };
  const alertIndex = s.buckets.findIndex((b) => b.le === o.alertAt);
  const alert =
    alertIndex < 0
      ? ''
      : `<line class="alertline" x1="${r1((alertIndex + 1) * bw)}" x2="${r1((alertIndex + 1) * bw)}" y1="${top - 6}" y2="${base}"/><text class="alerttext" x="${r1((alertIndex + 1) * bw + 3)}" y="${top - 2}">${esc(o.alertLabel)}</text>`;
  const marks = (
    [
      ['p50', o.p50],
      ['p99', o.p99],
    ] as const
  ).map(([label, v], j) => {
    const x = at(v);
    return x === undefined
      ? ''
      : `<line class="q" x1="${r1(x)}" x2="${r1(x)}" y1="${base}" y2="${base + 16 + j * 10}"/><text class="qtext" x="${r1(x + 2)}" y="${base + 24 + j * 10}">${label}</text>`;
  });
  return `<svg class="hist" width="100%" viewBox="0 0 ${W} ${H}" preserveAspectRatio="xMinYMin meet">${bars.join('')}${alert}${marks.join('')}</svg>`;
}

function fmtMs(v: number): string {
  if (!Number.isFinite(v)) return '—';
  return v >= 100 ? `${v.toFixed(0)} ms` : v >= 10 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`;
}

function fmtBytes(v: number, short = false): string {
  if (!Number.isFinite(v)) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let i = 0;
  let x = v;
  while (x >= 1024 && i < units.length - 1) {
    x /= 1024;
    i++;
  }
  const n = short || Number.isInteger(x) ? String(Math.round(x * 10) / 10) : x.toFixed(1);
  return short ? `${n}${units[i] === 'B' ? '' : units[i][0]}` : `${n} ${units[i]}`;
}
