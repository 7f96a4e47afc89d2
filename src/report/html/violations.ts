/** The violations' plain sentences (shown above the timeline), their witnesses, and replication losses. */
import type { CheckResult } from '../../checker/types.ts';
import type { Model } from '../../model/types.ts';
import { opLine } from './describe-op.ts';
import { esc } from './escape.ts';

type AnyModel = Model<unknown, unknown, unknown>;

export function renderViolations(result: CheckResult, model: AnyModel): string {
  const cards = result.violations.map((v) => {
    const witnesses = v.witness.map((op) => `<li class="wref mono" data-op-id="${op.id}">${esc(opLine(model, op))}</li>`);
    return `<div class="card violation" data-invariant="${esc(v.invariant)}">
<div><span class="inv">${esc(v.invariant)}</span> <span class="muted">on key</span> <code>${esc(v.key)}</code></div>
<p class="sentence">${esc(v.message)}</p>
<div class="muted">model state there: <code>${esc(v.modelState)}</code>; the model prescribes <code>${esc(v.expected)}</code>. Minimal violating sub-history: ${v.subHistory.length} op(s).</div>
<div class="small muted">witness (hover to find it on the timeline):</div><ul class="wlist">${witnesses.join('')}</ul>
</div>`;
  });
  const losses = result.replicationLosses.map(
    (l) => `<li><b>${esc(l.invariant)}</b> on <code>${esc(l.key)}</code>: ${esc(l.message)} <span class="muted">— explained by ${esc(l.faults.map((f) => `${f.kind} (${f.target})`).join(', '))}</span></li>`,
  );
  const lossCard = losses.length
    ? `<div class="card"><b>Replication losses</b> <span class="muted">(acknowledged writes a lossy failover may drop: reported, not violations)</span><ul>${losses.join('')}</ul></div>`
    : '';
  return cards.join('\n') + lossCard;
}
