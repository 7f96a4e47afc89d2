/**
 * Per key: the checker's verdict, the longest linearizable prefix it found, and the first op no
 * order could explain — where to start reading a failure.
 */
import type { CheckResult, KeyVerdict } from '../../checker/types.ts';
import type { OpRecord } from '../../history/types.ts';
import type { Model } from '../../model/types.ts';
import { opLine } from './describe-op.ts';
import { esc } from './escape.ts';

type AnyModel = Model<unknown, unknown, unknown>;

/** Long prefixes fold away; short ones are read at once. */
const OPEN_PREFIX_MAX = 30;

export function renderKeys(result: CheckResult, ops: readonly OpRecord[], model: AnyModel): string {
  const byId = new Map(ops.map((op) => [op.id, op]));
  const line = (id: number) => {
    const op = byId.get(id);
    return op ? opLine(model, op) : `op ${id} (not in the stored history)`;
  };
  const rows = result.keys.map(
    (k) => `<tr class="key" data-key="${esc(k.key)}">
<td><code>${esc(k.key)}</code></td><td class="verdict-${esc(k.verdict)}">${esc(k.verdict)}</td><td class="num">${k.ops}</td><td class="num">${k.statesExplored}</td>
<td>${details(k, line)}${k.note ? `<div class="muted small">${esc(k.note)}</div>` : ''}</td></tr>`,
  );
  return `<table class="keys"><thead><tr><th>key</th><th>verdict</th><th class="num">ops</th><th class="num">states explored</th><th>longest linearizable prefix · first unexplained op</th></tr></thead>
<tbody>${rows.join('')}</tbody></table>`;
}

function details(k: KeyVerdict, line: (id: number) => string): string {
  const parts: string[] = [];
  if (k.longestPrefix) {
    const items = k.longestPrefix.map((id) => `<li class="mono">${esc(line(id))}</li>`).join('');
    const open = k.longestPrefix.length <= OPEN_PREFIX_MAX ? ' open' : '';
    parts.push(
      `<details class="prefix"${open}><summary>longest linearizable prefix: ${k.longestPrefix.length} op(s)</summary><ol class="prefix">${items}</ol></details>`,
    );
  }
  if (k.unexplained !== undefined) {
    parts.push(
      `<div class="unexplained-op">first op no order could explain: <span class="wref mono" data-op-id="${k.unexplained}">${esc(line(k.unexplained))}</span></div>`,
    );
  }
  return parts.join('') || (k.verdict === 'ok' ? '<span class="muted">every op fits one order</span>' : '');
}
