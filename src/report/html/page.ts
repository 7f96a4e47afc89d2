/**
 * renderReport: one self-contained report.html (inline CSS, JS and SVG; no request leaves the
 * file), so it opens by double-click and survives being attached to a CI run.
 */
import { defaultCheckOptions } from '../../checker/options.ts';
import { checkables, type CheckableModelName } from '../../patterns/checkable.ts';
import type { Model } from '../../model/types.ts';
import { describeRace } from '../../plan/schedule.ts';
import { coverage } from '../coverage.ts';
import { renderCoverage } from './coverage-view.ts';
import type { ReportData } from './data.ts';
import { esc } from './escape.ts';
import { renderHeader, verdictOf } from './header.ts';
import { renderKeys } from './keys.ts';
import { renderMetrics } from './metrics-view.ts';
import { SCRIPT } from './script.ts';
import { STYLE } from './style.ts';
import { renderTimeline } from './timeline.ts';
import { renderViolations } from './violations.ts';

type AnyModel = Model<unknown, unknown, unknown>;

/** What a report folder names (its counterexample's pattern, or result.json's), as the page needs it. */
function specFor(
  pattern: string | undefined,
): { readonly model: AnyModel; readonly transitions?: readonly string[] } | undefined {
  return pattern !== undefined && Object.hasOwn(checkables, pattern)
    ? (checkables[pattern as CheckableModelName] as unknown as { model: AnyModel; transitions?: readonly string[] })
    : undefined;
}

export const modelFor = (pattern: string | undefined): AnyModel | undefined => specFor(pattern)?.model;

/** The race the run staged, in words, above the timeline (nothing when it staged none). */
function raceLine(ce: NonNullable<ReportData['counterexample']>): string {
  return ce.schedule.race
    ? `<p class="small">Race staged at a critical instant: ${esc(describeRace(ce.schedule.race))}. Its operation is marked ⚡; the hold aimed at it is in the nemesis row.</p>`
    : '';
}

/** The history's id of the holder's racing operation: its n-th, as the runner numbers a client's operations. */
function racedOp(ce: NonNullable<ReportData['counterexample']>) {
  const race = ce.schedule.race!;
  const holderOps = ce.history.ops
    .filter((op) => op.client === race.holder)
    .sort((a, b) => a.invokedAt - b.invokedAt || a.id - b.id);
  return { opId: holderOps[race.op]?.id, holder: race.holder, contender: race.contender };
}

export function renderReport(data: ReportData): string {
  const ce = data.counterexample;
  const pattern = ce?.pattern ?? data.result.pattern;
  const spec = specFor(pattern);
  const model = spec?.model;
  const verdict = verdictOf(data);
  const sections: string[] = [renderHeader(data)];

  if (ce && model) {
    const eps = typeof ce.options?.eps === 'number' ? ce.options.eps : defaultCheckOptions.eps;
    sections.push(
      `<h2>What went wrong</h2>${renderViolations(ce.result, model) || '<p class="muted">The checker reported no violation (see the per-key verdicts).</p>'}`,
    );
    sections.push(
      `<h2>Timeline of the shrunk counterexample</h2><p class="muted small">${ce.history.ops.length} ops on ${new Set(ce.history.ops.map((o) => o.key)).size} key(s), ${ce.history.faults.length} fault(s). Bars run from invocation to completion; hover one for its input and output. Idle stretches are drawn narrow and labelled with their length.</p>`,
      raceLine(ce),
      renderTimeline({
        history: ce.history,
        model,
        violations: ce.result.violations,
        keys: ce.result.keys,
        eps,
        duplicates: Object.values(ce.result.duplicateEffects ?? {}).flat(),
        ...(ce.schedule.race ? { race: racedOp(ce) } : {}),
      }),
    );
    if (ce.scheduleText)
      sections.push(
        `<details class="card"><summary>Shrunk schedule</summary><pre class="mono">${esc(ce.scheduleText)}</pre></details>`,
      );
    sections.push(`<h2>Per key</h2>${renderKeys(ce.result, ce.history.ops, model)}`);
  } else if (ce) {
    sections.push(`<p class="muted">Unknown pattern '${esc(pattern)}': the timeline needs its model.</p>`);
  } else {
    sections.push(`<h2>Timeline</h2><p class="muted">Every run passed; a passing run keeps no history to draw.</p>`);
  }

  sections.push(`<h2>Metrics (SRE checklist)</h2>${renderMetrics(data.metrics, pattern)}`);

  const table = data.coverage ?? (ce && model ? coverage(ce.history, model, spec?.transitions) : undefined);
  const source = data.coverage ? `All ${data.coverage.histories} run(s) of the job` : 'The shrunk counterexample only';
  sections.push(`<h2>Coverage: transitions × faults</h2>${renderCoverage(table, source)}`);

  const title = `${verdict} · chaoslua ${data.result.command ?? 'run'} ${pattern ?? ''} · seed ${data.result.seed ?? '?'}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<style>${STYLE}</style></head>
<body><main>
<div class="nav"><a href="../index.html">← all runs</a> · <span class="muted mono">${esc(data.dir)}</span></div>
${sections.join('\n')}
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
