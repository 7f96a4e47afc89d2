/** The transitions × faults table: what the run exercised, and under which faults. */
import type { CoverageTable } from '../coverage.ts';
import { esc } from './escape.ts';

export function renderCoverage(table: CoverageTable | undefined, source: string): string {
  if (!table)
    return '<p class="muted" id="no-coverage">No history is stored in this folder (passing runs keep none), so coverage cannot be computed.</p>';
  const head = `<tr><th>transition</th>${table.columns.map((c) => `<th class="num">${esc(c)}</th>`).join('')}<th class="num">total</th></tr>`;
  const rows = table.rows.map((r) => {
    const cells = table.columns.map((c) => {
      const n = r.counts[c] ?? 0;
      return `<td class="num${n ? '' : ' zero'}">${n || '·'}</td>`;
    });
    const gap = r.total === 0;
    return `<tr class="${gap ? 'gap' : ''}" data-transition="${esc(r.transition)}"><td>${esc(r.transition)}${gap ? ' <span class="small">(not exercised)</span>' : ''}</td>${cells.join('')}<td class="num"><b>${r.total}</b></td></tr>`;
  });
  const note = `${esc(source)}: ${table.ops} acknowledged op(s) replayed through the model${table.histories > 1 ? ` over ${table.histories} histories` : ''}${
    table.unexplained ? `; ${table.unexplained} op(s) the replay could not explain (counted anyway)` : ''
  }. A transition during several faults counts in each of their columns.`;
  return `<p class="muted small">${note}</p><table class="coverage"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
}
