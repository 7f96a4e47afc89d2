/** Greedy interval packing: each item goes to the first row where it does not overlap the previous one. */
export function packRows<T>(
  items: readonly T[],
  span: (item: T) => readonly [number, number],
  maxRows: number,
  pad = 2,
): { item: T; row: number }[] {
  const ends: number[] = [];
  const sorted = [...items].sort((a, b) => span(a)[0] - span(b)[0]);
  return sorted.map((item) => {
    const [x0, x1] = span(item);
    let row = ends.findIndex((end) => end + pad <= x0);
    if (row < 0) row = ends.length < maxRows ? ends.length : ends.indexOf(Math.min(...ends));
    ends[row] = Math.max(ends[row] ?? -Infinity, x1);
    return { item, row };
  });
}
