import { describe, expect, it } from 'vitest';
import { niceStep, ticks, timeScale } from '../../../src/report/html/scale.ts';

const options = { width: 1000, gapMs: 20, gapPx: 50, maxRate: 150 };

describe('timeline time axis', () => {
  it('draws idle stretches narrow and keeps time monotonic', () => {
    // Two 2 ms bursts 300 ms apart, then a 700 ms op: the shape of a shrunk counterexample.
    const s = timeScale(
      [
        [0, 2],
        [300, 302],
        [1000, 1700],
      ],
      0,
      1800,
      options,
    );
    const gaps = s.segments.filter((g) => g.gap);
    expect(gaps.map((g) => [g.t0, g.t1])).toEqual([
      [2, 300],
      [302, 1000],
      [1700, 1800],
    ]);
    for (const g of gaps) expect(g.x1 - g.x0).toBeLessThanOrEqual(200);
    expect(s.width).toBeLessThanOrEqual(1000 + 1e-6);
    const xs = Array.from({ length: 3601 }, (_, i) => s.x(i / 2));
    expect(xs.every((x, i) => i === 0 || x >= xs[i - 1])).toBe(true);
    // √-share: the 2 ms burst gets far more than its linear 2/704 of the busy width.
    expect(s.x(2) - s.x(0)).toBeGreaterThan(40);
  });

  it('is a plain linear axis when nothing is idle', () => {
    const s = timeScale(
      [
        [0, 600],
        [500, 1000],
      ],
      0,
      1000,
      options,
    );
    expect(s.segments).toHaveLength(1);
    expect(s.x(250)).toBeCloseTo(250, 6);
    expect(s.width).toBeCloseTo(1000, 6);
  });

  it('does not stretch a short history past maxRate', () => {
    const s = timeScale([[0, 1]], 0, 1, options);
    expect(s.width).toBeCloseTo(150, 6);
  });

  it('puts ticks on nice steps and only inside busy stretches', () => {
    expect([0.7, 3, 40, 180].map(niceStep)).toEqual([1, 5, 50, 200]);
    const s = timeScale(
      [
        [0, 10],
        [500, 510],
      ],
      0,
      510,
      options,
    );
    const coarse = ticks(s).filter((t) => t.minZoom === 1);
    expect(coarse.length).toBeGreaterThan(2);
    for (const t of ticks(s)) expect(t.t <= 10 || t.t >= 500).toBe(true);
  });
});
