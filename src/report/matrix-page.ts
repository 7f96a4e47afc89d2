/**
 * matrix.html: a server matrix at a glance, beside its matrix.json: a row per server (what it is as
 * probed, its features, its verdict and why) linking to that server's own report.html.
 */
import path from 'node:path';
import { duration, esc } from './html/escape.ts';
import { STYLE } from './html/style.ts';
import type { MatrixCertificate } from './matrix-certificate.ts';

export const MATRIX_PAGE = 'matrix.html';

const FEATURES = [
  ['functions', 'Functions'],
  ['shebangFlags', 'shebang flags'],
  ['evictsScripts', 'script eviction'],
  ['frozenTime', 'frozen TIME'],
] as const;

export function renderMatrixPage(m: MatrixCertificate): string {
  const rows = m.servers.map((s) => {
    const ok = s.verdict === 'certified';
    const name = s.server ? `${s.server} ${s.version}${s.allocator ? ` (${s.allocator})` : ''}` : s.version;
    const features = s.features
      ? FEATURES.filter(([k]) => s.features![k])
          .map(([, label]) => label)
          .join(', ') || 'none'
      : '';
    const why = [...s.failed.map((f) => `broke ${f}`), ...s.findings].join('; ');
    const report = s.certificate
      ? `<a href="${esc(path.posix.join(path.dirname(s.certificate).split(path.sep).join('/'), 'report.html'))}">report</a>`
      : '';
    return `<tr><td class="mono">${esc(s.asked)}</td><td>${esc(name)}</td><td>${esc(features)}</td><td class="${ok ? 'verdict-ok' : 'verdict-illegal'}">${esc(s.verdict.toUpperCase())}</td>
<td class="num">${s.runs}</td><td class="num">${s.operations}</td><td class="num">${esc(duration(s.seconds * 1000))}</td><td>${esc(why)}</td><td>${report}</td></tr>`;
  });
  const passed = m.servers.filter((s) => s.verdict === 'certified').length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,">
<title>chaoslua server matrix: ${esc(m.pattern)}</title><style>${STYLE}</style></head>
<body><main><h2>Server matrix: <span class="${m.certified ? 'verdict-ok' : 'verdict-illegal'}">${m.certified ? 'CERTIFIED' : 'NOT CERTIFIED'}</span></h2>
<p>${esc(m.pattern)}, <span class="mono">${esc(m.implementation.spec)}</span>, seed ${m.seed}${m.faultsAsked ? `, faults ${esc(m.faultsAsked.join(','))}` : ''}: ${passed} of ${m.servers.length} server(s) certified, the same schedules on each.</p>
<table class="runs"><thead><tr><th>asked</th><th>server (probed)</th><th>features</th><th>verdict</th><th class="num">runs</th><th class="num">ops</th><th class="num">time</th><th>why not</th><th></th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></main></body></html>
`;
}
