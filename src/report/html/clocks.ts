/**
 * The clocks a history moved, as the timeline plots them (Jepsen's clock nemesis plots each node's
 * offset): per node, its wall clock's offset over the run from the clock faults' `clockOffsets`
 * (true, 0, before a fault's first offset and from its heal at `endedAt`); per client, the offset
 * client-clock gave it for the whole run. Pure functions of the fault records.
 */
import type { FaultRecord } from '../../history/types.ts';
import { duration } from './escape.ts';

/** A stretch of one node's clock: constant (`fromMs === toMs`) or drifting linearly between the two. */
export interface ClockPiece {
  readonly from: number;
  readonly to: number;
  readonly fromMs: number;
  readonly toMs: number;
  readonly faultId: number;
}

/** One clock fault on one node, in words and in pieces. */
export interface NodeClockFault {
  readonly faultId: number;
  readonly kind: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly pieces: readonly ClockPiece[];
  /** "n2 +1000 ms from 12.3 s to 14.5 s". */
  readonly label: string;
}

export interface NodeClock {
  readonly node: string;
  /** In time order. */
  readonly faults: readonly NodeClockFault[];
  /** The largest offset it read either way, ms (the row's scale). */
  readonly maxAbsMs: number;
}

export interface ClientClock {
  readonly client: number;
  readonly offsetMs: number;
  readonly faultId: number;
  /** The record says the offset did not reach the implementation (a door that reads no clock the harness moves). */
  readonly reached: boolean;
  /** "c3 +41 ms all run". */
  readonly label: string;
}

export const signedMs = (ms: number) => `${ms > 0 ? '+' : ms < 0 ? '−' : '±'}${Math.abs(ms)} ms`;

/** The pieces of one fault: each offset holds until the next is set, and the last until the heal; a drift ramps between its readings. */
export function clockPieces(f: FaultRecord): ClockPiece[] {
  const offsets = [...(f.clockOffsets ?? [])].sort((a, b) => a.at - b.at);
  return offsets.map((o, i) => {
    const next = offsets[i + 1];
    const to = Math.max(o.at, next?.at ?? f.endedAt);
    // A drifting clock moves between readings; the last reading holds until the heal sets it true.
    const toMs = f.kind === 'clock-drift' && next ? next.offsetMs : o.offsetMs;
    return { from: o.at, to, fromMs: o.offsetMs, toMs, faultId: f.id };
  });
}

/** "n2 +1000 ms from 12.3 s to 14.5 s", "n1 strobed 0 ↔ −100 ms (20 steps) ...", "n4 drifted to +150 ms ...". */
export function clockFaultLabel(f: FaultRecord): string {
  const offsets = f.clockOffsets ?? [];
  const node = offsets[0]?.node ?? f.target;
  const span = `from ${duration(round(offsets[0]?.at ?? f.startedAt))} to ${duration(round(f.endedAt))}`;
  const values = [...new Set(offsets.map((o) => o.offsetMs))];
  if (f.kind === 'clock-drift')
    return `${node} drifted to ${signedMs(offsets[offsets.length - 1]?.offsetMs ?? 0)} ${span}`;
  if (f.kind === 'clock-strobe' || values.length > 2) {
    const far = values.reduce((m, v) => (Math.abs(v) > Math.abs(m) ? v : m), 0);
    return `${node} strobed 0 ↔ ${signedMs(far)} (${offsets.length} steps) ${span}`;
  }
  return `${node} ${offsets.map((o) => signedMs(o.offsetMs)).join(' then ')} ${span}`;
}

/** Every node whose clock a fault moved, in the order of its first move. */
export function nodeClocks(faults: readonly FaultRecord[]): NodeClock[] {
  const byNode = new Map<string, NodeClockFault[]>();
  const sorted = faults
    .filter((f) => (f.clockOffsets?.length ?? 0) > 0)
    .sort((a, b) => a.startedAt - b.startedAt || a.id - b.id);
  for (const f of sorted) {
    // A fault moves one node's clock; should one record name several, each node gets its own offsets.
    for (const node of [...new Set(f.clockOffsets!.map((o) => o.node))]) {
      const own: FaultRecord = { ...f, clockOffsets: f.clockOffsets!.filter((o) => o.node === node) };
      let list = byNode.get(node);
      if (!list) byNode.set(node, (list = []));
      list.push({
        faultId: f.id,
        kind: f.kind,
        startedAt: f.startedAt,
        endedAt: f.endedAt,
        pieces: clockPieces(own),
        label: clockFaultLabel(own),
      });
    }
  }
  return [...byNode].map(([node, list]) => ({
    node,
    faults: list,
    maxAbsMs: Math.max(0, ...list.flatMap((c) => c.pieces.flatMap((p) => [Math.abs(p.fromMs), Math.abs(p.toMs)]))),
  }));
}

/**
 * The step line of one node's clock as (time, offset) points from `tStart` to `tEnd`: 0, then each
 * piece, back to 0 at its fault's heal. `breaks` are times where the page's time scale bends (its
 * compressed idle stretches): a drift's ramp gets a point at each, so it stays straight in time.
 */
export function clockLine(
  clock: NodeClock,
  tStart: number,
  tEnd: number,
  breaks: readonly number[] = [],
): [number, number][] {
  const points: [number, number][] = [[tStart, 0]];
  const at = (t: number, ms: number) => {
    const last = points[points.length - 1];
    if (last[0] === t && last[1] === ms) return;
    points.push([t, ms]);
  };
  for (const fault of clock.faults) {
    for (const p of fault.pieces) {
      at(p.from, points[points.length - 1][1]);
      at(p.from, p.fromMs);
      if (p.fromMs !== p.toMs) {
        for (const b of breaks)
          if (b > p.from && b < p.to) at(b, p.fromMs + ((p.toMs - p.fromMs) * (b - p.from)) / (p.to - p.from));
      }
      at(p.to, p.toMs);
    }
    const healed = Math.max(fault.endedAt, fault.pieces[fault.pieces.length - 1]?.to ?? fault.endedAt);
    at(healed, points[points.length - 1][1]);
    at(healed, 0);
  }
  at(Math.max(tEnd, points[points.length - 1][0]), 0);
  return points;
}

/** A client's clock offset holds all run: its clock row shows it, where a band in the nemesis row would cover every lane. */
export const isClientClock = (f: FaultRecord) => f.kind === 'client-clock';

const CLIENT_TARGET = /^client c?(\d+)$/;
const CLIENT_OFFSET = /clock ([+-]?\d+(?:\.\d+)?) ?ms/;

/**
 * The clients client-clock skewed: its record names the client in `target` ("client c3") and the
 * offset in `detail` ("c3's clock +41ms (ahead of true), all run"), since one offset holds all run.
 */
export function clientClocks(faults: readonly FaultRecord[]): ClientClock[] {
  const out: ClientClock[] = [];
  for (const f of faults) {
    if (!isClientClock(f)) continue;
    const client = CLIENT_TARGET.exec(f.target)?.[1];
    const offset = f.clockOffsets?.[0]?.offsetMs ?? Number(CLIENT_OFFSET.exec(f.detail)?.[1]);
    if (client === undefined || !Number.isFinite(offset)) continue;
    const reached = !f.detail.includes('not reached');
    out.push({
      client: Number(client),
      offsetMs: offset,
      faultId: f.id,
      reached,
      label: `c${client} ${signedMs(offset)} all run${reached ? '' : ' (not reached)'}`,
    });
  }
  return out.sort((a, b) => a.client - b.client);
}

const round = (t: number) => Math.round(t * 10) / 10;
