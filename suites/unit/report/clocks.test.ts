/**
 * The clock plot's data, computed from fault records as the runner writes them: each node's offset
 * over the run (true before its first offset and from the heal on), the words beside it, and each
 * client's constant offset from its client-clock record.
 */
import { describe, expect, it } from 'vitest';
import type { ClockOffset, FaultRecord } from '../../../src/history/types.ts';
import { clientClocks, clockFaultLabel, clockLine, clockPieces, nodeClocks } from '../../../src/report/html/clocks.ts';
import { renderClockRows } from '../../../src/report/html/clock-rows.ts';

let nextId = 1;

/** A server clock fault as src/faults/clocks.ts records it. */
function clockFault(
  kind: 'clock-jump' | 'clock-strobe' | 'clock-drift',
  startedAt: number,
  endedAt: number,
  offsets: [number, string, number][],
): FaultRecord {
  const clockOffsets: ClockOffset[] = offsets.map(([at, node, offsetMs]) => ({ at, node, offsetMs }));
  return {
    type: 'fault',
    id: nextId++,
    kind,
    target: 'node 2 (master of 10922-16383)',
    startedAt,
    endedAt,
    lossy: false,
    detail: '',
    clockOffsets,
  };
}

/** A client-clock record as src/runner/client-clocks.ts writes it. */
function clientClock(c: number, ms: number, reached = true): FaultRecord {
  const detail = `c${c}'s clock ${ms > 0 ? '+' : ''}${ms}ms (${ms > 0 ? 'ahead of' : 'behind'} true), all run${reached ? '' : ' (not reached: the implementation reads no clock the harness can move)'}`;
  return {
    type: 'fault',
    id: nextId++,
    kind: 'client-clock',
    target: `client c${c}`,
    startedAt: 0,
    endedAt: 9_000,
    lossy: false,
    detail,
  };
}

describe('clockPieces', () => {
  it('holds a jump from its offset to the heal', () => {
    const f = clockFault('clock-jump', 12_290, 14_500, [[12_300, 'n2', 1_000]]);
    expect(clockPieces(f)).toEqual([{ from: 12_300, to: 14_500, fromMs: 1_000, toMs: 1_000, faultId: f.id }]);
  });

  it('holds each strobe offset until the next is set', () => {
    const f = clockFault('clock-strobe', 0, 200, [
      [0, 'n1', -100],
      [50, 'n1', 0],
      [100, 'n1', -100],
      [150, 'n1', 0],
    ]);
    expect(clockPieces(f).map((p) => [p.from, p.to, p.fromMs, p.toMs])).toEqual([
      [0, 50, -100, -100],
      [50, 100, 0, 0],
      [100, 150, -100, -100],
      [150, 200, 0, 0],
    ]);
  });

  it('ramps a drift between its readings and holds the last until the heal', () => {
    const f = clockFault('clock-drift', 1_000, 4_100, [
      [1_000, 'n4', 0],
      [4_000, 'n4', 600],
    ]);
    expect(clockPieces(f).map((p) => [p.from, p.to, p.fromMs, p.toMs])).toEqual([
      [1_000, 4_000, 0, 600],
      [4_000, 4_100, 600, 600],
    ]);
  });

  it('reads offsets in time order, whatever order the record lists them in', () => {
    const f = clockFault('clock-strobe', 0, 100, [
      [50, 'n1', 0],
      [0, 'n1', 100],
    ]);
    expect(clockPieces(f).map((p) => p.from)).toEqual([0, 50]);
  });
});

describe('clockFaultLabel', () => {
  it('says who, by how much, from when to when', () => {
    expect(clockFaultLabel(clockFault('clock-jump', 12_290, 14_500, [[12_300, 'n2', 1_000]]))).toBe(
      'n2 +1000 ms from 12.3 s to 14.5 s',
    );
    expect(clockFaultLabel(clockFault('clock-jump', 100, 700, [[140.6, 'n3', -5_000]]))).toBe(
      'n3 −5000 ms from 140.6 ms to 700 ms',
    );
  });

  it('sums a strobe up by its far offset and its steps, a drift by where it got to', () => {
    expect(
      clockFaultLabel(
        clockFault('clock-strobe', 0, 2_000, [
          [0, 'n1', -100],
          [50, 'n1', 0],
          [100, 'n1', -100],
        ]),
      ),
    ).toBe('n1 strobed 0 ↔ −100 ms (3 steps) from 0 ms to 2.00 s');
    expect(
      clockFaultLabel(
        clockFault('clock-drift', 1_000, 4_100, [
          [1_000, 'n4', 0],
          [4_000, 'n4', 600],
        ]),
      ),
    ).toBe('n4 drifted to +600 ms from 1.00 s to 4.10 s');
  });
});

describe('nodeClocks', () => {
  it('gives each node whose clock moved a row, in the order of its first move, with its own scale', () => {
    const clocks = nodeClocks([
      clockFault('clock-strobe', 5_000, 6_000, [
        [5_000, 'n1', 100],
        [5_050, 'n1', 0],
      ]),
      clockFault('clock-jump', 1_000, 2_000, [[1_000, 'n2', -5_000]]),
      clockFault('clock-jump', 3_000, 4_000, [[3_000, 'n2', 1_000]]),
      clientClock(0, 41),
      {
        type: 'fault',
        id: nextId++,
        kind: 'node-freeze',
        target: 'node 0',
        startedAt: 0,
        endedAt: 1,
        lossy: false,
        detail: '',
      },
    ]);
    expect(clocks.map((c) => [c.node, c.faults.length, c.maxAbsMs])).toEqual([
      ['n2', 2, 5_000],
      ['n1', 1, 100],
    ]);
  });

  it('draws nothing for a history without clock faults', () => {
    expect(nodeClocks([clientClock(1, 20)])).toEqual([]);
    expect(
      renderClockRows({ faults: [], top: 0, X: (t) => t, tStart: 0, tEnd: 10, breaks: [], width: 10, labelX: 0 })
        .height,
    ).toBe(0);
  });
});

describe('clockLine', () => {
  it('is true before the first offset, steps to it, and is true again from the heal', () => {
    const [clock] = nodeClocks([clockFault('clock-jump', 12_290, 14_500, [[12_300, 'n2', 1_000]])]);
    expect(clockLine(clock, 0, 20_000)).toEqual([
      [0, 0],
      [12_300, 0],
      [12_300, 1_000],
      [14_500, 1_000],
      [14_500, 0],
      [20_000, 0],
    ]);
  });

  it('steps a strobe up and down, and puts a point on a drift at each bend of the time scale', () => {
    const [strobe] = nodeClocks([
      clockFault('clock-strobe', 0, 150, [
        [0, 'n1', -100],
        [50, 'n1', 0],
        [100, 'n1', -100],
      ]),
    ]);
    expect(clockLine(strobe, 0, 150)).toEqual([
      [0, 0],
      [0, -100],
      [50, -100],
      [50, 0],
      [100, 0],
      [100, -100],
      [150, -100],
      [150, 0],
    ]);
    const [drift] = nodeClocks([
      clockFault('clock-drift', 1_000, 4_000, [
        [1_000, 'n4', 0],
        [4_000, 'n4', 600],
      ]),
    ]);
    expect(clockLine(drift, 0, 5_000, [2_000, 4_500])).toEqual([
      [0, 0],
      [1_000, 0],
      [2_000, 200],
      [4_000, 600],
      [4_000, 0],
      [5_000, 0],
    ]);
  });
});

describe('clientClocks', () => {
  it("reads each skewed client's offset, and whether it reached the implementation, from its record", () => {
    expect(
      clientClocks([clientClock(3, -2_041, false), clientClock(0, 41)]).map((c) => [
        c.client,
        c.offsetMs,
        c.reached,
        c.label,
      ]),
    ).toEqual([
      [0, 41, true, 'c0 +41 ms all run'],
      [3, -2_041, false, 'c3 −2041 ms all run (not reached)'],
    ]);
  });

  it('skips a record it cannot read rather than invent an offset', () => {
    expect(clientClocks([{ ...clientClock(1, 5), detail: 'something else' }])).toEqual([]);
  });
});

describe('renderClockRows', () => {
  it('draws a row per moved node and per skewed client, with the words beside them', () => {
    const faults = [clockFault('clock-jump', 100, 700, [[140.6, 'n2', 1_000]]), clientClock(0, 41), clientClock(1, -3)];
    const rows = renderClockRows({
      faults,
      top: 50,
      X: (t) => t / 2,
      tStart: 0,
      tEnd: 2_000,
      breaks: [],
      width: 1_000,
      labelX: 100,
    });
    expect([rows.nodes, rows.clients]).toEqual([1, 2]);
    const svg = [...rows.shapes, ...rows.texts, ...rows.labels].join('');
    expect(svg).toContain('data-clock-node="n2"');
    expect(svg.match(/data-clock-client="\d"/g)).toEqual(['data-clock-client="0"', 'data-clock-client="1"']);
    expect(svg).toContain('>n2 +1000 ms from 140.6 ms to 700 ms</text>');
    expect(svg).toContain('>c1 −3 ms all run</text>');
    // The step: true until 140.6 ms (x 70.3), +1000 ms (the row's top) until the heal at 700 ms (x 350).
    const line = rows.shapes.find((s) => s.includes('polyline'))!;
    const ys = [...line.matchAll(/(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(ys.map(([x]) => x)).toEqual([0, 70.3, 70.3, 350, 350, 1_000]);
    expect(ys[2][1]).toBeLessThan(ys[1][1]);
    expect(ys[4][1]).toBe(ys[1][1]);
  });
});
