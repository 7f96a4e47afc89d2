/** The violations' plain sentences (shown above the timeline), their witnesses, and replication and clock losses. */
import type { CheckResult } from '../../checker/types.ts';
import type { Model } from '../../model/types.ts';
import { opLine } from './describe-op.ts';
import { clockFaultLabel } from './clocks.ts';
import { esc } from './escape.ts';

type AnyModel = Model<unknown, unknown, unknown>;

export function renderViolations(result: CheckResult, model: AnyModel): string {
  const cards = result.violations.map((v) => {
    const witnesses = v.witness.map(
      (op) => `<li class="wref mono" data-op-id="${op.id}">${esc(opLine(model, op))}</li>`,
    );
    return `<div class="card violation" data-invariant="${esc(v.invariant)}">
<div><span class="inv">${esc(v.invariant)}</span> <span class="muted">on key</span> <code>${esc(v.key)}</code></div>
<p class="sentence">${esc(v.message)}</p>
<div class="muted">model state there: <code>${esc(v.modelState)}</code>; the model prescribes <code>${esc(v.expected)}</code>. Minimal violating sub-history: ${v.subHistory.length} op(s).</div>
<div class="small muted">witness (hover to find it on the timeline):</div><ul class="wlist">${witnesses.join('')}</ul>
</div>`;
  });
  const losses = result.replicationLosses.map(
    (l) =>
      `<li><b>${esc(l.invariant)}</b> on <code>${esc(l.key)}</code>: ${esc(l.message)} <span class="muted">— explained by ${esc(l.faults.map((f) => `${f.kind} (${f.target})`).join(', '))}</span></li>`,
  );
  const lossCard = losses.length
    ? `<div class="card"><b>Replication losses</b> <span class="muted">(acknowledged writes a lossy failover may drop: reported, not violations)</span><ul>${losses.join('')}</ul></div>`
    : '';
  return cards.join('\n') + lossCard + renderClockLosses(result);
}

/**
 * Keys legal only once leases may have ended early or late by the server clocks the harness moved:
 * the environment's doing, reported like replication losses, with the clocks that explain each.
 */
export function renderClockLosses(result: Pick<CheckResult, 'clockLosses'>): string {
  const losses = (result.clockLosses ?? []).map((l) => {
    const clocks = l.faults.map((f) => `${f.kind} (${clockFaultLabel(f)})`).join('; ');
    const witness = l.witness
      .map((op) => `<span class="wref mono" data-op-id="${op.id}">op ${op.id}</span>`)
      .join(', ');
    return `<li class="clock-loss" data-key="${esc(l.key)}"><b>${esc(l.invariant)}</b> on <code>${esc(l.key)}</code>: ${esc(l.message)} <span class="muted">— explained by ${esc(clocks)}${witness ? `; witness ${witness}` : ''}</span></li>`;
  });
  return losses.length
    ? `<div class="card" id="clock-losses"><b>Clock losses</b> <span class="muted">(leases a moved server clock ended early or late in real time: reported, not violations; the clock rows of the timeline show each node's offset)</span><ul>${losses.join('')}</ul></div>`
    : '';
}
