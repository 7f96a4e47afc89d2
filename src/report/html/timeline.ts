/**
 * The history as a Jepsen/Porcupine-style timeline: one lane per logical client, each op a bar from
 * invocation to completion coloured by outcome, faults as bands across the lanes, the violating
 * key's lease/TTL windows underneath. One SVG of plain rects, no listener per op: the page's script
 * delegates hover and zoom (html/script.ts), so a 10,000-op history stays responsive.
 *
 * Zoom stretches only the shapes (a horizontal scale on one group); text sits in a separate group
 * whose positions the script multiplies, so labels never distort.
 */
import type { KeyVerdict, Violation } from '../../checker/types.ts';
import type { FaultRecord, History, OpRecord } from '../../history/types.ts';
import type { Model } from '../../model/types.ts';
import { inputText, opName, resultText } from './describe-op.ts';
import { duration, esc, jsonScript, r1 } from './escape.ts';
import { CLOCK_LEGEND, renderClockRows } from './clock-rows.ts';
import { isClientClock } from './clocks.ts';
import { leaseWindows, type LeaseWindow } from './leases.ts';
import { packRows } from './pack.ts';
import { ticks, timeScale } from './scale.ts';
import { CHAR_PX, textAt } from './svg-text.ts';

type AnyModel = Model<unknown, unknown, unknown>;

export interface TimelineInput {
  readonly history: History;
  readonly model: AnyModel;
  readonly violations: readonly Violation[];
  readonly keys: readonly KeyVerdict[];
  /** The checker's slack around expiry windows, ms. */
  readonly eps: number;
  /** Ids of the operations only a second execution explains (CheckResult.duplicateEffects). */
  readonly duplicates?: readonly number[];
  /** The race the run staged (src/generator/races.ts): the holder's racing operation and the contender. */
  readonly race?: { readonly opId?: number; readonly holder: number; readonly contender: number };
}

const PLOT_WIDTH = 1100;
// Wide enough for "client 0 (contender)" and "scale ±5000 ms" at 12 px.
const LABEL_WIDTH = 136;
const AXIS_H = 24;
const ROW_H = 16;
const BAR_H = 14;
/** Ops are labelled in their lane only when there are few enough to read. */
const LABEL_OPS_MAX = 400;
const PAD = 16;
const TAIL_H = 4;

/** Fault kinds grouped into the colours the legend names. */
export function faultClass(kind: string): string {
  if (kind.endsWith('freeze')) return 'f-freeze';
  if (kind.startsWith('failover')) return 'f-failover';
  if (kind === 'toxic' || kind === 'proxy-down') return 'f-network';
  if (kind.includes('flush')) return 'f-flush';
  if (kind.startsWith('kill')) return 'f-kill';
  if (kind.startsWith('clock-')) return 'f-clock';
  if (kind === 'command-delay' || kind === 'reply-loss') return 'f-command';
  return 'f-other';
}

const FAULT_LEGEND: readonly [string, string][] = [
  ['f-freeze', 'freeze'],
  ['f-failover', 'failover'],
  ['f-network', 'toxics / proxy down'],
  ['f-flush', 'SCRIPT FLUSH'],
  ['f-kill', 'kill / restart'],
  ['f-command', 'command delay / reply loss'],
  ['f-clock', 'server clock moved'],
  ['f-other', 'other fault'],
];

/** Math.max without spreading: histories can hold more values than a call has arguments. */
function maxOf(values: readonly number[]): number {
  let m = -Infinity;
  for (const v of values) if (v > m) m = v;
  return m;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function renderTimeline(input: TimelineInput): string {
  const { history, model, violations, keys, eps } = input;
  const ops = history.ops;
  if (ops.length === 0) return '<p class="muted">The history holds no operations.</p>';
  const clients = [...new Set(ops.map((op) => op.client))].sort((a, b) => a - b);
  const laneOf = new Map(clients.map((c, i) => [c, i]));
  const keyNames = [...new Set(ops.map((op) => op.key))];
  const keyIndex = new Map(keyNames.map((k, i) => [k, i]));
  const witness = new Set(violations.flatMap((v) => v.witness.map((op) => op.id)));
  const unexplained = new Set(keys.flatMap((k) => (k.unexplained === undefined ? [] : [k.unexplained])));
  const twice = new Set(input.duplicates ?? []);
  const focusKey = violations[0]?.key;
  const leases = focusKey === undefined ? [] : leaseWindows(history, model, focusKey, eps);

  const lastSeen = maxOf([
    ...ops.map((op) => op.completedAt),
    ...history.faults.map((f) => f.endedAt),
    ...leases.map((l) => l.cutAt ?? l.windowEnd),
  ]);
  const tStart = Math.min(0, -maxOf(ops.map((op) => -op.invokedAt)));
  const busy = ops.map((op) => [op.invokedAt, op.completedAt] as const);
  const gapMs = Math.max(20, 10 * median(ops.map((op) => op.completedAt - op.invokedAt)));
  const tEnd = lastSeen + Math.max(1, (lastSeen - tStart) * 0.01);
  const scale = timeScale(busy, tStart, tEnd, { width: PLOT_WIDTH, gapMs, gapPx: 56, maxRate: 150 });
  // A margin either side, so the first tick's label and a bar at the very end are not clipped.
  const X = (t: number) => PAD + scale.x(t);
  const W = Math.ceil(scale.width + 2 * PAD);

  const labelled = ops.length <= LABEL_OPS_MAX;
  const laneH = labelled ? 34 : 22;
  const nemesisFaults = history.faults.filter((f) => !isClientClock(f));
  const faultRows = packRows(
    nemesisFaults,
    (f) => [X(f.startedAt), Math.max(X(f.endedAt), X(f.startedAt) + 40)] as const,
    6,
  );
  const nemesisRows = Math.max(1, maxOf(faultRows.map((r) => r.row + 1)));
  const leaseRows = packRows(leases, (l) => [X(l.from), X(l.cutAt ?? l.windowEnd)] as const, 8);
  // At least two rows: the section's label is two lines (title and key).
  const leaseRowCount = leases.length === 0 ? 0 : Math.max(2, maxOf(leaseRows.map((r) => r.row + 1)));
  const nemesisTop = AXIS_H;
  const clockTop = nemesisTop + nemesisRows * ROW_H + 6;
  const breaks = scale.segments.flatMap((s) => (s.gap ? [s.t0, s.t1] : []));
  const clocks = renderClockRows({
    faults: history.faults,
    top: clockTop,
    X,
    tStart,
    tEnd,
    breaks,
    width: W,
    labelX: LABEL_WIDTH - 8,
  });
  const laneTop = clockTop + clocks.height + (clocks.height ? 4 : 0);
  const laneBottom = laneTop + clients.length * laneH;
  const leaseTop = laneBottom + 8;
  const H = leaseTop + leaseRowCount * ROW_H + (leaseRowCount ? 6 : 0);

  const shapes: string[] = [];
  const texts: string[] = [];
  const labels: string[] = [];

  // Idle stretches drawn narrow: shaded, with their real length written in the axis row.
  for (const s of scale.segments) {
    if (!s.gap) continue;
    shapes.push(
      `<rect class="gapband" x="${r1(PAD + s.x0)}" y="${AXIS_H}" width="${r1(s.x1 - s.x0)}" height="${H - AXIS_H}"/>`,
    );
    const text = `⋯${duration(Math.round(s.t1 - s.t0))}⋯`;
    texts.push(
      textAt(PAD + (s.x0 + s.x1) / 2, 15, text, 'gaplabel', {
        anchor: 'middle',
        room: s.x1 - s.x0,
        width: text.length * CHAR_PX,
      }),
    );
  }
  clients.forEach((c, i) => {
    if (i % 2 === 1)
      shapes.push(`<rect class="lanebg" x="0" y="${laneTop + i * laneH}" width="${W}" height="${laneH}"/>`);
    const role = c === input.race?.holder ? ' (racer)' : c === input.race?.contender ? ' (contender)' : '';
    labels.push(
      `<text class="lane client" x="${LABEL_WIDTH - 8}" y="${laneTop + i * laneH + laneH - 6}">client ${esc(c)}${role}</text>`,
    );
  });
  labels.push(`<text class="lane muted" x="${LABEL_WIDTH - 8}" y="${nemesisTop + 12}">nemesis</text>`);
  if (leaseRowCount) {
    labels.push(`<text class="lane muted" x="${LABEL_WIDTH - 8}" y="${leaseTop + 12}">leases / TTLs</text>`);
    labels.push(
      `<text class="lane muted small" x="${LABEL_WIDTH - 8}" y="${leaseTop + 24}">${esc(shortKey(focusKey ?? ''))}</text>`,
    );
  }

  for (const { item: f, row } of faultRows)
    shapes.push(...faultShapes(f, row, X, { nemesisTop, bandTop: clockTop, H }, texts));
  labels.push(...clocks.labels);
  shapes.push(...clocks.shapes);
  texts.push(...clocks.texts);

  const tips: Record<number, (string | number)[]> = {};
  const byLane = new Map<number, OpRecord[]>();
  for (const op of ops) {
    const lane = laneOf.get(op.client) ?? 0;
    let list = byLane.get(lane);
    if (!list) byLane.set(lane, (list = []));
    list.push(op);
    // Compact: the script writes the op id, client, key and times into words (html/script.ts).
    tips[op.id] = [
      op.client,
      keyIndex.get(op.key) ?? 0,
      op.outcome,
      inputText(model, op),
      resultText(model, op),
      round(op.invokedAt),
      round(op.completedAt),
    ];
    const y = laneTop + lane * laneH + laneH - BAR_H - 3;
    const x0 = X(op.invokedAt);
    const x1 = Math.max(X(op.completedAt), x0 + 1.5);
    const classes = [
      'op',
      op.outcome,
      witness.has(op.id) ? 'witness' : '',
      unexplained.has(op.id) ? 'unexplained' : '',
      twice.has(op.id) ? 'twice' : '',
    ]
      .filter(Boolean)
      .join(' ');
    if (op.outcome === 'info') {
      // It may take effect at any instant after its invocation: a faded tail runs to the end.
      // Thin and opaque, so the tails of many indeterminate ops do not pile up into a solid bar.
      shapes.push(
        `<rect class="tail" data-k="${keyIndex.get(op.key)}" x="${r1(x1)}" y="${y + BAR_H - TAIL_H}" width="${r1(Math.max(0, W - x1))}" height="${TAIL_H}"/>`,
      );
    }
    if (witness.has(op.id) || unexplained.has(op.id)) {
      // A marker that keeps its size at any zoom: a witness bar can be a sliver in a long history.
      texts.push(
        textAt((x0 + x1) / 2, y - 1, '▼', unexplained.has(op.id) ? 'mark unexplained-mark' : 'mark', {
          anchor: 'middle',
        }),
      );
    }
    if (op.id === input.race?.opId) {
      // The operation raced at a critical instant: the hold aimed at it is in the nemesis row above.
      texts.push(textAt(x0, y - 1, '⚡', 'mark race-mark', { anchor: 'middle' }));
    }
    if (twice.has(op.id)) {
      // Beside the bar's end, so it never covers a witness marker: this op ran twice (a resend).
      texts.push(textAt(x1 + 2, y + BAR_H - 3, '×2', 'mark twice-mark', {}));
    }
    shapes.push(
      `<rect class="${classes}" data-op-id="${op.id}" data-k="${keyIndex.get(op.key)}" x="${r1(x0)}" y="${y}" width="${r1(x1 - x0)}" height="${BAR_H}"/>`,
    );
  }
  if (labelled) {
    for (const [lane, list] of byLane) {
      list.sort((a, b) => a.invokedAt - b.invokedAt);
      list.forEach((op, i) => {
        const x = X(op.invokedAt);
        const next = list[i + 1];
        const room = (next ? X(next.invokedAt) : W) - x - 3;
        const text = `${opName(op)} → ${clip(op.outcome === 'ok' ? resultText(model, op) : op.outcome === 'fail' ? 'failed' : '?', 22)}`;
        texts.push(
          textAt(x + 1, laneTop + lane * laneH + 11, text, `oplabel${witness.has(op.id) ? ' witness-label' : ''}`, {
            room,
            width: text.length * CHAR_PX,
          }),
        );
      });
    }
  }
  for (const { item: l, row } of leaseRows) shapes.push(...leaseShapes(l, leaseTop + row * ROW_H, X, texts));

  const tickMarks = ticks(scale).map((t) => {
    const off = t.minZoom > 1 ? ' off' : '';
    return `<g class="tick${off}" data-x="${r1(PAD + t.x)}" data-z="${t.minZoom}" transform="translate(${r1(PAD + t.x)},0)"><line y1="${AXIS_H - 4}" y2="${H}"/><text y="${AXIS_H - 8}">${esc(duration(round(t.t)))}</text></g>`;
  });

  const keyOptions =
    keyNames.length > 1
      ? `<label>key <select id="tl-key"><option value="">all keys</option>${keyNames.map((k, i) => `<option value="${i}"${k === focusKey ? ' data-focus' : ''}>${esc(k)}</option>`).join('')}</select></label>`
      : '';
  const present = new Set(nemesisFaults.map((f) => faultClass(f.kind)));
  const legend = [
    '<span class="sw ok"></span>ok',
    '<span class="sw fail"></span>fail',
    '<span class="sw info"></span>info (indeterminate)',
    witness.size ? '<span class="sw witnesssw"></span>witness' : '',
    unexplained.size ? '<span class="sw unexpl"></span>first unexplained' : '',
    twice.size ? '<span class="twice-mark">×2</span> ran twice (only a second execution explains it)' : '',
    input.race ? '<span class="race-mark">⚡</span> raced at a critical instant' : '',
    ...FAULT_LEGEND.filter(([c]) => present.has(c)).map(
      ([c, name]) => `<span class="sw band ${c}"></span>${esc(name)}`,
    ),
    leases.length ? '<span class="sw lease"></span>lease held <span class="sw expiry"></span>may run out' : '',
    clocks.height ? CLOCK_LEGEND : '',
  ].filter(Boolean);

  return `<div class="timeline" id="timeline">
<div class="tl-controls"><button type="button" data-zoom="out" title="zoom out">−</button><span id="tl-zoom">1×</span><button type="button" data-zoom="in" title="zoom in">+</button><button type="button" data-zoom="fit">fit</button>${keyOptions}<span class="legend">${legend.join(' ')}</span></div>
<div class="tl-body"><svg class="tl-labels" width="${LABEL_WIDTH}" height="${H}">${labels.join('')}</svg>
<div class="tl-scroll"><svg class="tl-plot" id="tl-plot" data-width="${W}" width="${W}" height="${H}" data-lanes="${clients.length}">
<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="3" height="6" class="hatch"/></pattern></defs>
<g class="ticks">${tickMarks.join('')}</g>
<g class="plot" transform="scale(1,1)">${shapes.join('')}</g>
<g class="tl-text">${texts.join('')}</g>
</svg></div></div>
<div class="tip" id="tl-tip" hidden></div>
${jsonScript('tl-data', { keys: keyNames, ops: tips })}
</div>`;
}

interface Rows {
  readonly nemesisTop: number;
  /** Where a fault's band across the rows below starts (the clock rows, then the lanes). */
  readonly bandTop: number;
  readonly H: number;
}

function faultShapes(f: FaultRecord, row: number, X: (t: number) => number, rows: Rows, texts: string[]): string[] {
  const cls = faultClass(f.kind);
  const x0 = X(f.startedAt);
  const x1 = Math.max(X(f.endedAt), x0 + 2);
  const y = rows.nemesisTop + row * ROW_H + 2;
  const title = `<title>${esc(`${f.kind} — ${f.target}${f.lossy ? ' (may lose acknowledged writes)' : ''}\n${duration(f.startedAt)} – ${duration(f.endedAt)}\n${f.detail}`)}</title>`;
  const label = `${f.kind} ${f.target}`;
  texts.push(
    textAt(x0 + 3, y + 10, label, 'faultlabel', { room: Math.max(x1 - x0, 90), width: label.length * CHAR_PX }),
  );
  return [
    `<rect class="band ${cls}" x="${r1(x0)}" y="${rows.bandTop}" width="${r1(x1 - x0)}" height="${rows.H - rows.bandTop}"/>`,
    `<rect class="fault ${cls}${f.lossy ? ' lossy' : ''}" data-fault-id="${f.id}" x="${r1(x0)}" y="${y}" width="${r1(x1 - x0)}" height="${ROW_H - 4}">${title}</rect>`,
  ];
}

function leaseShapes(l: LeaseWindow, y: number, X: (t: number) => number, texts: string[]): string[] {
  const end = l.cutAt ?? l.windowEnd;
  const heldTo = Math.min(end, l.certainUntil);
  const fate =
    l.cutBy !== undefined
      ? `replaced or removed by op ${l.cutBy} by ${duration(round(l.cutAt ?? 0))}`
      : l.expired
        ? 'ran out (a later op saw it gone)'
        : `runs out between ${duration(round(l.certainUntil))} and ${duration(round(l.windowEnd))}`;
  const title = `<title>${esc(`${l.op} of client ${l.client} (op ${l.opId}) set ${duration(l.ms)} of expiry at ${duration(round(l.from))}; ${fate}`)}</title>`;
  const out = [
    `<rect class="lease" data-lease-of="${l.opId}" x="${r1(X(l.from))}" y="${y + 3}" width="${r1(Math.max(1, X(heldTo) - X(l.from)))}" height="${ROW_H - 6}">${title}</rect>`,
  ];
  if (end > l.certainUntil) {
    out.push(
      `<rect class="expiry" x="${r1(X(l.certainUntil))}" y="${y + 2}" width="${r1(Math.max(1, X(end) - X(l.certainUntil)))}" height="${ROW_H - 4}">${title}</rect>`,
    );
  }
  const label = `op ${l.opId} ${l.op} ${duration(l.ms)}`;
  texts.push(
    textAt(X(l.from) + 2, y + 11, label, 'leaselabel', { room: X(end) - X(l.from), width: label.length * CHAR_PX }),
  );
  return out;
}

const round = (t: number) => Math.round(t * 10) / 10;
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const shortKey = (k: string) => clip(k, 18);
