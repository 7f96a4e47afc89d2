/**
 * The timeline's clock rows, between the nemesis row and the clients' lanes: one per node whose
 * clock a fault moved, its offset a step line around a dashed true (0) line, each fault's offsets in
 * words above it; one per client client-clock skewed, its offset a labelled constant. Each node row
 * has its own scale (its largest offset, written under its name), so a 100 ms step stays visible
 * beside a 5 s one; the words carry the figures.
 */
import type { FaultRecord } from '../../history/types.ts';
import { clientClocks, clockLine, nodeClocks, signedMs, type NodeClock } from './clocks.ts';
import { esc, r1 } from './escape.ts';
import { CHAR_PX, textAt } from './svg-text.ts';

/** A node's row: a line of words, then the plot. */
const NODE_ROW_H = 40;
const NODE_TEXT_H = 12;
const CLIENT_ROW_H = 16;

export interface ClockRowsInput {
  readonly faults: readonly FaultRecord[];
  /** y of the rows' top. */
  readonly top: number;
  /** The page's time → x (idle stretches compressed). */
  readonly X: (t: number) => number;
  readonly tStart: number;
  readonly tEnd: number;
  /** Times where the scale bends (its compressed stretches' ends). */
  readonly breaks: readonly number[];
  /** Right edge of the plot, px. */
  readonly width: number;
  /** x of the labels' right edge in the label column. */
  readonly labelX: number;
}

export interface ClockRows {
  readonly height: number;
  readonly nodes: number;
  readonly clients: number;
  /** Label column (left SVG). */
  readonly labels: readonly string[];
  /** Shapes (stretched on zoom). */
  readonly shapes: readonly string[];
  /** Texts (moved on zoom, never stretched). */
  readonly texts: readonly string[];
}

export function renderClockRows(input: ClockRowsInput): ClockRows {
  const nodes = nodeClocks(input.faults);
  const clients = clientClocks(input.faults);
  const labels: string[] = [];
  const shapes: string[] = [];
  const texts: string[] = [];
  let y = input.top;
  nodes.forEach((clock, i) => {
    drawNode(clock, y, i, input, { labels, shapes, texts });
    y += NODE_ROW_H;
  });
  for (const c of clients) {
    const mid = y + CLIENT_ROW_H / 2;
    labels.push(`<text class="lane clock-name" x="${input.labelX}" y="${mid + 4}">c${esc(c.client)} clock</text>`);
    const x0 = input.X(Math.min(0, input.tStart));
    shapes.push(
      `<line class="clock-line client${c.reached ? '' : ' unreached'}" data-clock-client="${esc(c.client)}" x1="${r1(x0)}" x2="${r1(input.width)}" y1="${mid}" y2="${mid}"/>`,
    );
    const text = c.label;
    texts.push(textAt(x0 + 4, mid - 2, text, 'clocklabel', { room: input.width - x0, width: text.length * CHAR_PX }));
    y += CLIENT_ROW_H;
  }
  return { height: y - input.top, nodes: nodes.length, clients: clients.length, labels, shapes, texts };
}

interface Out {
  readonly labels: string[];
  readonly shapes: string[];
  readonly texts: string[];
}

function drawNode(clock: NodeClock, top: number, index: number, input: ClockRowsInput, out: Out): void {
  const { X } = input;
  const plotTop = top + NODE_TEXT_H;
  const half = (NODE_ROW_H - NODE_TEXT_H - 4) / 2;
  const zero = plotTop + half + 1;
  const scale = clock.maxAbsMs > 0 ? half / clock.maxAbsMs : 0;
  const Y = (ms: number) => zero - ms * scale;
  if (index % 2 === 1)
    out.shapes.push(`<rect class="clockbg" x="0" y="${top}" width="${r1(input.width)}" height="${NODE_ROW_H}"/>`);
  out.labels.push(`<text class="lane clock-name" x="${input.labelX}" y="${top + 16}">${esc(clock.node)} clock</text>`);
  out.labels.push(
    `<text class="lane muted small" x="${input.labelX}" y="${top + 29}">scale ±${esc(clock.maxAbsMs)} ms</text>`,
  );
  out.shapes.push(`<line class="clock-zero" x1="0" x2="${r1(input.width)}" y1="${r1(zero)}" y2="${r1(zero)}"/>`);
  const points = clockLine(clock, input.tStart, input.tEnd, input.breaks).map(([t, ms]) => `${r1(X(t))},${r1(Y(ms))}`);
  out.shapes.push(
    `<polygon class="clock-area" points="${points.join(' ')} ${r1(X(input.tEnd))},${r1(zero)} ${r1(X(input.tStart))},${r1(zero)}"/>`,
  );
  out.shapes.push(`<polyline class="clock-line" data-clock-node="${esc(clock.node)}" points="${points.join(' ')}"/>`);
  clock.faults.forEach((f, i) => {
    const x0 = X(f.pieces[0]?.from ?? f.startedAt);
    const x1 = Math.max(X(f.endedAt), x0 + 2);
    // Hovering the fault's stretch of the row names it, whatever the zoom hides of its words.
    out.shapes.push(
      `<rect class="clock-hit" data-clock-fault="${f.faultId}" x="${r1(x0)}" y="${top}" width="${r1(x1 - x0)}" height="${NODE_ROW_H}"><title>${esc(`${f.label} (fault ${f.faultId}, ${f.kind}; set true at its heal)`)}</title></rect>`,
    );
    const next = clock.faults[i + 1];
    const room = (next ? X(next.pieces[0]?.from ?? next.startedAt) : input.width) - x0 - 4;
    out.texts.push(textAt(x0 + 2, top + 10, f.label, 'clocklabel', { room, width: f.label.length * CHAR_PX }));
    // Each distinct step's value beside it, when the step holds long enough to write it.
    for (const [j, p] of f.pieces.entries()) {
      if (f.kind !== 'clock-jump' || p.fromMs === 0) continue;
      const end = X(f.pieces[j + 1]?.from ?? f.endedAt);
      const text = signedMs(p.fromMs);
      const ty = p.fromMs > 0 ? Y(p.fromMs) + 10 : Y(p.fromMs) - 2;
      out.texts.push(
        textAt(X(p.from) + 3, r1n(ty), text, 'clockvalue', { room: end - X(p.from) - 4, width: text.length * CHAR_PX }),
      );
    }
  });
}

const r1n = (n: number) => Math.round(n * 10) / 10;

/** The legend's entry, when any clock row is drawn. */
export const CLOCK_LEGEND = '<span class="sw clocksw"></span>clock offset (true = dashed 0)';
