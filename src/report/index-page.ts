/**
 * reports/index.html: every run folder, newest first, with its verdict. Regenerated whole each
 * time (a few hundred small result.json files read in milliseconds), so it never goes stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readResult, REPORT_FILE, COUNTEREXAMPLE_FILE, RESULT_FILE, type RunSummary } from './html/data.ts';
import { duration, esc } from './html/escape.ts';
import { STYLE } from './html/style.ts';

export const INDEX_FILE = 'index.html';

export interface RunEntry {
  readonly name: string;
  /** Milliseconds since the epoch: from the folder's stamp (createRunFolder), else result.json's mtime. */
  readonly time: number;
  readonly result?: RunSummary;
  /** Why result.json could not be read, when it could not. */
  readonly error?: string;
  readonly hasReport: boolean;
  readonly hasCounterexample: boolean;
}

/** 20261130-080210-run-1 → its UTC instant (createRunFolder stamps ISO time in UTC). */
export function stampTime(name: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(name);
  if (!m) return undefined;
  const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Number.isNaN(t) ? undefined : t;
}

/** Run folders (those holding result.json or counterexample.json), newest first. */
export function listRuns(reportsRoot: string): RunEntry[] {
  if (!fs.existsSync(reportsRoot)) return [];
  const entries: RunEntry[] = [];
  for (const d of fs.readdirSync(reportsRoot, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const dir = path.join(reportsRoot, d.name);
    const has = (f: string) => fs.existsSync(path.join(dir, f));
    if (!has(RESULT_FILE) && !has(COUNTEREXAMPLE_FILE)) continue;
    let result: RunSummary | undefined;
    let error: string | undefined;
    try {
      result = readResult(dir);
    } catch (e) {
      error = (e as Error).message.split('\n')[0];
    }
    const file = has(RESULT_FILE) ? RESULT_FILE : COUNTEREXAMPLE_FILE;
    const time = stampTime(d.name) ?? fs.statSync(path.join(dir, file)).mtimeMs;
    entries.push({
      name: d.name,
      time,
      result,
      error,
      hasReport: has(REPORT_FILE),
      hasCounterexample: has(COUNTEREXAMPLE_FILE),
    });
  }
  // Same second: the later folder got the higher suffix (-2, -3), so the name breaks the tie.
  return entries.sort((a, b) => b.time - a.time || b.name.localeCompare(a.name, 'en', { numeric: true }));
}

export function renderIndex(runs: readonly RunEntry[]): string {
  const rows = runs.map((r) => {
    const res = r.result;
    const failed = res ? res.passed !== true || r.hasCounterexample : r.hasCounterexample;
    const verdict = res || r.hasCounterexample ? (failed ? 'FAILED' : 'PASSED') : 'UNREADABLE';
    const link = r.hasReport
      ? `${encodeURIComponent(r.name)}/${REPORT_FILE}`
      : `${encodeURIComponent(r.name)}/${res ? RESULT_FILE : COUNTEREXAMPLE_FILE}`;
    const firstFail = res?.invariants?.find((i) => !i.passed)?.invariant ?? res?.findings?.[0] ?? r.error ?? '';
    return `<tr class="run" data-run="${esc(r.name)}"><td class="${failed ? 'verdict-illegal' : 'verdict-ok'}">${verdict}</td><td><a href="${esc(link)}">${esc(r.name)}</a></td>
<td>${esc(new Date(r.time).toISOString().replace('T', ' ').slice(0, 19))}</td><td>${esc(res?.command ?? '')}</td><td>${esc(res?.pattern ?? '')}</td><td>${esc(res?.impl ?? '')}</td>
<td class="num">${esc(res?.seed ?? '')}</td><td class="num">${esc(res?.runs ?? '')}</td><td class="num">${esc(res?.operations ?? '')}</td><td class="num">${res?.seconds === undefined ? '' : esc(duration(res.seconds * 1000))}</td><td>${esc(firstFail)}</td></tr>`;
  });
  const passed = runs.filter((r) => r.result?.passed === true && !r.hasCounterexample).length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,">
<title>chaoslua reports</title><style>${STYLE}</style></head>
<body><main><h2>chaoslua runs</h2><p class="muted">${runs.length} run(s), ${passed} passed, ${runs.length - passed} failed or unreadable. Newest first (times in UTC).</p>
<table class="runs"><thead><tr><th>verdict</th><th>run</th><th>started</th><th>command</th><th>pattern</th><th>implementation</th><th class="num">seed</th><th class="num">runs</th><th class="num">ops</th><th class="num">duration</th><th>first failure</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>${runs.length ? '' : '<p class="muted">No run folders yet.</p>'}</main></body></html>
`;
}

/** Rewrites reportsRoot/index.html from the folders present now; returns its path. */
export function writeIndex(reportsRoot: string): string {
  fs.mkdirSync(reportsRoot, { recursive: true });
  const file = path.join(reportsRoot, INDEX_FILE);
  fs.writeFileSync(file, renderIndex(listRuns(reportsRoot)));
  return file;
}
