/**
 * The timeline's time axis. Counterexamples are mostly waiting: a few 1 ms operations, a 300 ms
 * freeze, a few more, then one op stuck for 700 ms behind a killed node. A linear axis draws the
 * interesting operations as slivers. So:
 * - idle stretches (no operation in flight) longer than `gapMs` are drawn at a fixed, labelled width;
 * - the busy stretches between them share the rest in proportion to the square root of their
 *   length (linear inside each one), so a 2 ms burst stays readable next to a 700 ms wait.
 * A long history with no idle stretch is one busy stretch: a plain linear axis.
 */
export interface Segment {
  readonly t0: number;
  readonly t1: number;
  readonly x0: number;
  readonly x1: number;
  /** A compressed idle stretch. */
  readonly gap: boolean;
}

export interface TimeScale {
  readonly segments: readonly Segment[];
  readonly width: number;
  x(t: number): number;
}

export interface ScaleOptions {
  /** Pixels available. */
  readonly width: number;
  /** Idle stretches longer than this are compressed. */
  readonly gapMs: number;
  /** Width of one compressed stretch. */
  readonly gapPx: number;
  /** Most pixels per millisecond, so a short history is not stretched absurdly. */
  readonly maxRate: number;
}

/** Pixels per ms of a segment (gaps included). */
export const rateOf = (s: Segment) => (s.t1 > s.t0 ? (s.x1 - s.x0) / (s.t1 - s.t0) : 0);

export function timeScale(
  busy: readonly (readonly [number, number])[],
  tStart: number,
  tEnd: number,
  options: ScaleOptions,
): TimeScale {
  const end = Math.max(tEnd, tStart + 1e-3);
  const merged: [number, number][] = [];
  for (const [a, b] of [...busy].sort((p, q) => p[0] - q[0])) {
    const lo = Math.max(tStart, a);
    const hi = Math.min(end, Math.max(a, b));
    if (hi < lo) continue;
    const last = merged[merged.length - 1];
    if (last && lo <= last[1]) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  // Stretches in time order; short idle stretches join the busy ones around them.
  const spans: { t0: number; t1: number; gap: boolean }[] = [];
  const add = (t0: number, t1: number, gap: boolean) => {
    const last = spans[spans.length - 1];
    if (last && !gap && !last.gap) last.t1 = t1;
    else spans.push({ t0, t1, gap });
  };
  let cursor = tStart;
  for (const [a, b] of [...merged, [end, end] as [number, number]]) {
    if (a > cursor) add(cursor, a, a - cursor > options.gapMs);
    if (b > a) add(a, b, false);
    cursor = Math.max(cursor, b);
  }
  if (spans.length === 0) spans.push({ t0: tStart, t1: end, gap: false });

  const gaps = spans.filter((s) => s.gap).length;
  let gapPx = gaps === 0 ? 0 : Math.min(options.gapPx, (options.width * 0.3) / gaps);
  const runs = spans.filter((s) => !s.gap);
  const px = new Map<(typeof spans)[number], number>();
  // Share by √length, capping each run at maxRate; what a capped run leaves goes to the others.
  let open = runs;
  let available = options.width - gaps * gapPx;
  for (let round = 0; round < runs.length + 1 && open.length > 0; round++) {
    const weight = open.reduce((n, s) => n + Math.sqrt(s.t1 - s.t0), 0);
    const capped = open.filter((s) => (available * Math.sqrt(s.t1 - s.t0)) / weight > options.maxRate * (s.t1 - s.t0));
    if (capped.length === 0) {
      for (const s of open) px.set(s, (available * Math.sqrt(s.t1 - s.t0)) / weight);
      open = [];
      break;
    }
    for (const s of capped) {
      px.set(s, options.maxRate * (s.t1 - s.t0));
      available -= options.maxRate * (s.t1 - s.t0);
    }
    open = open.filter((s) => !capped.includes(s));
  }
  // A short history capped by maxRate leaves width over: the gaps take it, up to 4× their size.
  const spare = options.width - [...px.values()].reduce((n, w) => n + w, 0) - gaps * gapPx;
  if (gaps > 0 && spare > 0) gapPx = Math.min(gapPx * 4, gapPx + spare / gaps);

  const segments: Segment[] = [];
  let right = 0;
  for (const s of spans) {
    const w = s.gap ? gapPx : (px.get(s) ?? 0);
    segments.push({ t0: s.t0, t1: s.t1, x0: right, x1: right + w, gap: s.gap });
    right += w;
  }
  const first = segments[0];
  const last = segments[segments.length - 1];
  const x = (t: number): number => {
    if (t <= first.t0) return first.x0 - (first.t0 - t) * rateOf(first);
    let lo = 0;
    let hi = segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (segments[mid].t0 <= t) lo = mid;
      else hi = mid - 1;
    }
    const s = segments[lo];
    if (t >= s.t1) return s.x1 + (t - s.t1) * rateOf(last);
    return s.x0 + ((t - s.t0) / (s.t1 - s.t0 || 1)) * (s.x1 - s.x0);
  };
  return { segments, width: right, x };
}

/** 1, 2 or 5 times a power of ten, at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

export interface Tick {
  readonly t: number;
  readonly x: number;
  /** The zoom from which the tick is shown: coarse ticks at 1, finer ones as the reader zooms in. */
  readonly minZoom: number;
}

/** Ticks inside the busy stretches, about `spacing` px apart at each zoom level 1, 2, 4, 8. */
export function ticks(scale: TimeScale, spacing = 90): Tick[] {
  const out = new Map<string, Tick>();
  for (const s of scale.segments) {
    const rate = rateOf(s);
    if (s.gap || !(rate > 0)) continue;
    for (let level = 0; level < 4; level++) {
      const zoom = 2 ** level;
      const step = niceStep(spacing / (rate * zoom));
      for (let t = Math.ceil(s.t0 / step) * step; t <= s.t1 + 1e-9; t += step) {
        const key = t.toFixed(6);
        if (!out.has(key)) out.set(key, { t, x: scale.x(t), minZoom: zoom });
      }
    }
  }
  return [...out.values()].sort((a, b) => a.x - b.x);
}
