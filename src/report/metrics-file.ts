/**
 * reports/<run>/metrics.prom: the reference client's Prometheus registry at the end of a run, in the
 * text exposition format, and a small parser that reads it back for the report page.
 * Each logical client has a registry of its own (src/scripts/metrics.ts), so a job usually holds
 * several texts; they are merged by summing counters and histograms and keeping the last gauge.
 */
import fs from 'node:fs';
import path from 'node:path';

export const METRICS_FILE = 'metrics.prom';

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The sample's own name: `x_bucket`, `x_sum`, `x_count` for a histogram `x`. */
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface MetricFamily {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  readonly samples: readonly Sample[];
}

export type Metrics = ReadonlyMap<string, MetricFamily>;

export interface HistogramSeries {
  /** The series' labels, `le` removed. */
  readonly labels: Readonly<Record<string, string>>;
  /** Cumulative counts by upper bound, ascending, ending with +Inf. */
  readonly buckets: readonly { readonly le: number; readonly count: number }[];
  readonly sum: number;
  readonly count: number;
}

/** Writes the registry text (or the merge of several registries' texts); returns the file's path. */
export function writeMetricsFile(dir: string, text: string | readonly string[]): string {
  const file = path.join(dir, METRICS_FILE);
  const body =
    typeof text === 'string' ? text : text.length === 1 ? text[0] : formatMetrics(mergeMetrics(text.map(parseMetrics)));
  fs.writeFileSync(file, body.endsWith('\n') ? body : body + '\n');
  return file;
}

/** The folder's metrics, or undefined when the run recorded none. */
export function readMetricsFile(dir: string): Metrics | undefined {
  const file = path.join(dir, METRICS_FILE);
  if (!fs.existsSync(file)) return undefined;
  return parseMetrics(fs.readFileSync(file, 'utf8'));
}

const SUFFIXES: Record<MetricType, readonly string[]> = {
  counter: ['', '_total'],
  gauge: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
  untyped: [''],
};

/** Parses the text exposition format (HELP, TYPE, samples; timestamps ignored). Throws on a malformed line, naming it. */
export function parseMetrics(text: string): Metrics {
  const families = new Map<string, { name: string; type: MetricType; help: string; samples: Sample[] }>();
  const family = (name: string) => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, type: 'untyped', help: '', samples: [] }));
    return f;
  };
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const meta = /^#\s*(HELP|TYPE)\s+([A-Za-z_:][A-Za-z0-9_:]*)(?:\s+(.*))?$/.exec(line);
    if (meta) {
      const f = family(meta[2]);
      if (meta[1] === 'HELP') f.help = unescapeHelp(meta[3] ?? '');
      else f.type = asType(meta[3], index + 1);
      return;
    }
    if (line.startsWith('#')) return;
    const sample = parseSample(line, index + 1);
    family(owningFamily(sample.name, families)).samples.push(sample);
  });
  return families;
}

function asType(word: string | undefined, lineNo: number): MetricType {
  const types: MetricType[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];
  const t = (word ?? '').trim() as MetricType;
  if (!types.includes(t)) throw new Error(`metrics line ${lineNo}: unknown TYPE '${word ?? ''}'`);
  return t;
}

/** The family a sample belongs to: a declared family whose name plus a suffix of its type gives the sample's name. */
function owningFamily(sampleName: string, families: ReadonlyMap<string, { type: MetricType }>): string {
  for (const [name, f] of families) {
    if (SUFFIXES[f.type].some((s) => name + s === sampleName)) return name;
  }
  return sampleName;
}

function parseSample(line: string, lineNo: number): Sample {
  const m = /^([A-Za-z_:][A-Za-z0-9_:]*)/.exec(line);
  if (!m) throw new Error(`metrics line ${lineNo}: not a sample: ${line}`);
  let i = m[1].length;
  const labels: Record<string, string> = {};
  if (line[i] === '{') {
    i++;
    for (;;) {
      while (line[i] === ' ' || line[i] === ',') i++;
      if (line[i] === '}') {
        i++;
        break;
      }
      const lm = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"/.exec(line.slice(i));
      if (!lm) throw new Error(`metrics line ${lineNo}: bad label set: ${line}`);
      i += lm[0].length;
      let value = '';
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\') {
          const next = line[i + 1];
          value += next === 'n' ? '\n' : next;
          i += 2;
        } else value += line[i++];
      }
      if (line[i] !== '"') throw new Error(`metrics line ${lineNo}: unterminated label value: ${line}`);
      i++;
      labels[lm[1]] = value;
    }
  }
  const [valueText] = line.slice(i).trim().split(/\s+/);
  const value = parseValue(valueText);
  if (Number.isNaN(value) && valueText !== 'NaN') throw new Error(`metrics line ${lineNo}: bad value '${valueText}'`);
  return { name: m[1], labels, value };
}

function parseValue(text: string | undefined): number {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === undefined || text === '') return NaN;
  return Number(text);
}

function unescapeHelp(text: string): string {
  return text.replace(/\\(n|\\)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}

const labelKey = (name: string, labels: Readonly<Record<string, string>>) =>
  name + JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));

/** Several registries as one: counters, histograms and summaries add up; for a gauge the last value wins. */
export function mergeMetrics(all: readonly Metrics[]): Metrics {
  const merged = new Map<string, { name: string; type: MetricType; help: string; samples: Map<string, Sample> }>();
  for (const metrics of all) {
    for (const f of metrics.values()) {
      let into = merged.get(f.name);
      if (!into) merged.set(f.name, (into = { name: f.name, type: f.type, help: f.help, samples: new Map() }));
      for (const s of f.samples) {
        const key = labelKey(s.name, s.labels);
        const before = into.samples.get(key);
        const adds = f.type !== 'gauge' && f.type !== 'untyped';
        into.samples.set(key, before && adds ? { ...s, value: before.value + s.value } : s);
      }
    }
  }
  return new Map(
    [...merged].map(([name, f]) => [name, { name, type: f.type, help: f.help, samples: [...f.samples.values()] }]),
  );
}

/** Back to the text exposition format. */
export function formatMetrics(metrics: Metrics): string {
  const blocks = [...metrics.values()].map((f) => {
    const lines = [
      `# HELP ${f.name} ${f.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`,
      `# TYPE ${f.name} ${f.type}`,
    ];
    for (const s of f.samples) {
      const labels = Object.entries(s.labels).map(
        ([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`,
      );
      lines.push(`${s.name}${labels.length ? `{${labels.join(',')}}` : ''} ${formatValue(s.value)}`);
    }
    return lines.join('\n');
  });
  return blocks.join('\n\n') + '\n';
}

function formatValue(v: number): string {
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

/** Sum of a counter's samples over all label sets; undefined when the family was not recorded at all. */
export function counterTotal(metrics: Metrics, name: string): number | undefined {
  const f = metrics.get(name);
  return f ? f.samples.reduce((n, s) => n + s.value, 0) : undefined;
}

/** One series per label set (without `le`) of a histogram family; [] when it is absent. */
export function histogramSeries(metrics: Metrics, name: string): HistogramSeries[] {
  const f = metrics.get(name);
  if (!f) return [];
  const series = new Map<
    string,
    { labels: Record<string, string>; buckets: { le: number; count: number }[]; sum: number; count: number }
  >();
  for (const s of f.samples) {
    const { le, ...labels } = s.labels;
    const key = labelKey('', labels);
    let one = series.get(key);
    if (!one) series.set(key, (one = { labels, buckets: [], sum: 0, count: 0 }));
    if (s.name === `${name}_bucket` && le !== undefined) one.buckets.push({ le: parseValue(le), count: s.value });
    else if (s.name === `${name}_sum`) one.sum = s.value;
    else if (s.name === `${name}_count`) one.count = s.value;
  }
  return [...series.values()].map((s) => ({ ...s, buckets: s.buckets.sort((a, b) => a.le - b.le) }));
}

/**
 * Prometheus's histogram_quantile: linear interpolation inside the bucket the rank falls in (the
 * first bucket starts at 0); a rank in the +Inf bucket answers the highest finite bound.
 * NaN when nothing was observed.
 */
export function histogramQuantile(q: number, buckets: HistogramSeries['buckets']): number {
  if (buckets.length === 0) return NaN;
  const total = buckets[buckets.length - 1].count;
  if (!(total > 0)) return NaN;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const b of buckets) {
    if (b.count >= rank) {
      if (b.le === Infinity) return lowerBound;
      if (b.count === lowerCount) return b.le;
      return lowerBound + (b.le - lowerBound) * ((rank - lowerCount) / (b.count - lowerCount));
    }
    lowerBound = b.le;
    lowerCount = b.count;
  }
  return lowerBound;
}
