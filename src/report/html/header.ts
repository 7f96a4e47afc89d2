/** The verdict banner: what ran, what it found, and the one command that reproduces it. */
import { COUNTEREXAMPLE_FILE, type OperationAnswers, type ReportData, type RunSummary } from './data.ts';
import { duration, esc } from './escape.ts';
import { describeSettings, settingsFlags } from '../../plan/settings.ts';

export function verdictOf(data: ReportData): 'PASSED' | 'FAILED' {
  return data.result.passed === true && !data.counterexample ? 'PASSED' : 'FAILED';
}

/** Shell-quotes a word when it needs it. */
const sh = (word: string) => (/^[\w./:@=,+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

export function replayCommand(data: ReportData): { label: string; command: string } {
  const checked = data.result.checked;
  if (checked)
    return {
      label: 're-check',
      command: `chaoslua check ${sh(checked.file)} --model ${data.result.pattern ?? '?'} --format ${checked.format}`,
    };
  if (data.counterexample)
    return { label: 'replay', command: `chaoslua replay ${sh(`${data.dir}/${COUNTEREXAMPLE_FILE}`)}` };
  const r = data.result;
  const command = r.command ?? 'run';
  const parts = ['chaoslua', command];
  if (command === 'certify' && r.impl) parts.push('--impl', sh(r.impl));
  if (r.pattern) parts.push('--pattern', r.pattern);
  if (r.seed !== undefined) parts.push('--seed', String(r.seed));
  if (r.runs !== undefined) parts.push('--runs', String(r.runs));
  // The same seed draws the same schedules only with the same settings.
  if (r.settings) parts.push(...settingsFlags(r.settings));
  return { label: 're-run with the same seed', command: parts.join(' ') };
}

const percent = (n: number, of: number) => `${of === 0 ? 0 : Math.round((n / of) * 100)}%`;

/** `acquire 40: 30 (75%) · 2 (5%) · 8 (20%); release ...`: how much of the verdict rests on acknowledged answers. */
function answersFact(operations: Readonly<Record<string, OperationAnswers>> | undefined): string | undefined {
  if (!operations || Object.keys(operations).length === 0) return undefined;
  return Object.entries(operations)
    .map(
      ([op, o]) =>
        `${op} ${o.issued}: ${o.ok} (${percent(o.ok, o.issued)}) · ${o.fail} (${percent(o.fail, o.issued)}) · ${o.info} (${percent(o.info, o.issued)})`,
    )
    .join('; ');
}

/** `hit 2 (run 3: op 41; run 7: op 12) · ...`: operations only a second execution explains. */
function duplicatesFact(tally: RunSummary['duplicateEffects']): string | undefined {
  if (!tally) return undefined;
  return (
    Object.entries(tally)
      .map(
        ([op, t]) =>
          `${op} ${t.count}${
            t.ops.length
              ? ` (${t.ops
                  .slice(0, 6)
                  .map((o) => (o.run === undefined ? `op ${o.id}` : `run ${o.run}: op ${o.id}`))
                  .join('; ')}${t.ops.length > 6 ? '; …' : ''})`
              : ''
          }`,
      )
      .join(' · ') || 'none'
  );
}

export function renderHeader(data: ReportData): string {
  const r = data.result;
  const verdict = verdictOf(data);
  const faults = Object.entries(r.faults ?? {})
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const unknown = data.counterexample?.result.verdict === 'unknown';
  const facts: [string, string | undefined][] = [
    ['implementation', r.impl],
    ['pattern', r.pattern],
    ['seed', r.seed === undefined ? undefined : String(r.seed)],
    ['settings', r.settings ? describeSettings(r.settings) : undefined],
    ['runs', r.runs === undefined ? undefined : `${r.runs}${r.interrupted ? ' (time limit)' : ''}`],
    ['operations', r.operations === undefined ? undefined : String(r.operations)],
    ['faults', r.faults ? faults || 'none fired' : undefined],
    ['duration', r.seconds === undefined ? undefined : duration(r.seconds * 1000)],
    ['replication losses', r.replicationLosses === undefined ? undefined : String(r.replicationLosses)],
    ['clock losses', clockLossesFact(r, data)],
    ['duplicate effects (ran twice)', duplicatesFact(r.duplicateEffects)],
    ['server', r.server ? serverFact(r.server) : r.redisVersion],
    ['answers (ok · fail · indeterminate)', answersFact(r.evidence?.operations)],
  ];
  const cmd = replayCommand(data);
  const sub = r.incomplete
    ? `incomplete: the environment ended the job after ${r.runs ?? 0} finished run(s), kept as evidence`
    : unknown
      ? 'the checker ran out of search budget: verdict unknown, which is never a pass'
      : verdict === 'PASSED'
        ? 'every history was linearizable and every invariant held'
        : `${(r.invariants ?? []).filter((i) => !i.passed).length || (data.counterexample?.result.violations.length ?? 0)} invariant(s) violated`;
  return `<header class="verdict ${verdict === 'PASSED' ? 'passed' : 'failed'}">
<h1 id="verdict">${verdict}</h1><div class="sub">chaoslua ${esc(r.command ?? 'run')} · ${esc(sub)}</div>
<dl>${facts
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`)
    .join('')}</dl>
${renderClockAssumption(r.clocks, r.clientClocks)}
<div class="cmd"><span>${esc(cmd.label)}:</span><code id="replay">${esc(cmd.command)}</code><button type="button" class="copy" data-text="${esc(cmd.command)}">copy</button></div>
</header>
${renderInvariants(data)}`;
}

function renderInvariants(data: ReportData): string {
  const r = data.result;
  const chips = (r.invariants ?? []).map(
    (i) =>
      `<span class="chip ${i.passed ? 'ok' : 'bad'}"${i.barelyWitnessed ? ` title="${esc(i.barelyWitnessed)}"` : ''}>${i.passed ? '✓' : '✗'} ${esc(i.invariant)}${i.barelyWitnessed ? ` <i>(${esc(i.barelyWitnessed)})</i>` : ''}</span>`,
  );
  const findings = (r.findings ?? []).map((f) => `<li>${esc(f)}</li>`);
  // Reported, not failing (unless the pattern marks one a violation, when it is in findings too).
  const duplicates = (r.duplicateFindings ?? []).map((f) => `<li>${esc(f)}</li>`);
  // A passing job keeps no history: its clock losses are known by these notes alone.
  const clockNotes = data.counterexample ? [] : (r.clockLossNotes ?? []).map((n) => `<li>${esc(n)}</li>`);
  const topology = r.topology ? `<div class="muted small">topology: ${esc(r.topology)}</div>` : '';
  return `<div class="chips">${chips.join('')}</div>${findings.length ? `<div class="card violation"><b>Implementation findings</b><ul>${findings.join('')}</ul></div>` : ''}${duplicates.length ? `<div class="card" id="duplicate-findings"><b>Duplicate effects the pattern reports</b><ul>${duplicates.join('')}</ul></div>` : ''}${clockNotes.length ? `<div class="card" id="clock-loss-notes"><b>Clock losses</b> <span class="muted">(runs a moved server clock explained: reported, not violations)</span><ul>${clockNotes.join('')}</ul></div>` : ''}${topology}`;
}

/** "Valkey 8.1.8 (libc) · Functions, shebang flags, script eviction, frozen TIME". */
function serverFact(s: NonNullable<RunSummary['server']>): string {
  const names: Record<string, string> = {
    functions: 'Functions',
    shebangFlags: 'shebang flags',
    evictsScripts: 'script eviction',
    frozenTime: 'frozen TIME',
  };
  const has = Object.entries(s.features)
    .filter(([, on]) => on)
    .map(([f]) => names[f] ?? f);
  return `${s.name.charAt(0).toUpperCase()}${s.name.slice(1)} ${s.version} (${s.allocator}) · ${has.length ? has.join(', ') : 'no Functions, shebang flags, script eviction or frozen TIME'}`;
}

/** Runs a moved server clock explained (result.json), or, for one history, its keys that are clock losses. */
function clockLossesFact(r: RunSummary, data: ReportData): string | undefined {
  if (r.clockLosses !== undefined) return String(r.clockLosses);
  const keys = data.counterexample?.result.clockLosses;
  return keys === undefined ? undefined : `${keys.length} key(s)`;
}

/** The clock assumption lines the certificate states (`clocks`): what the verdict holds under. */
function renderClockAssumption(servers: readonly string[] | undefined, clients: string | undefined): string {
  const lines = [...(servers ?? []), ...(clients === undefined ? [] : [`clients: ${clients}`])];
  if (lines.length === 0) return '';
  return `<div class="clocks-block"><div class="clocks-head">clocks (the assumption this verdict holds under)</div><ul class="clocks" id="clock-assumption">${lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul></div>`;
}
