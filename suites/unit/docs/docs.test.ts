/**
 * The documentation holds together: every relative link of README.md, docs/ and bench/results/ points
 * at a file or folder that exists, and every #anchor at a heading of its page; no table cell is longer
 * than 300 characters (a long story goes in prose, not in a cell); the README stays a front page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function markdownUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return markdownUnder(rel);
    return e.name.endsWith('.md') ? [rel] : [];
  });
}

const PAGES = ['README.md', ...markdownUnder('docs'), ...markdownUnder('bench/results')];

/** The text outside fenced code blocks, line by line (code lines blanked, so line numbers hold). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const plain = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_]/g, (c) => (c === '_' ? '_' : ''));
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

interface Link {
  readonly page: string;
  readonly line: number;
  readonly target: string;
}

function linksOf(page: string): Link[] {
  const links: Link[] = [];
  proseLines(fs.readFileSync(path.join(ROOT, page), 'utf8')).forEach((line, i) => {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ page, line: i + 1, target: m[1] });
  });
  return links;
}

/** The cells of a Markdown table row (escaped pipes stay in their cell). */
function cellsOf(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

describe('the documentation', () => {
  it('has pages to check', () => {
    expect(PAGES).toContain('docs/benchmarks.md');
    expect(PAGES.length).toBeGreaterThan(20);
  });

  it('every relative link points at something that exists, and every anchor at a heading', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const link of linksOf(page)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue; // https:, mailto:
        const [file, anchor] = link.target.split('#');
        const target =
          file === ''
            ? path.join(ROOT, page)
            : path.resolve(path.dirname(path.join(ROOT, page)), decodeURIComponent(file));
        const where = `${page}:${link.line}: ${link.target}`;
        if (!fs.existsSync(target)) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (anchor !== undefined && anchor !== '') {
          if (!target.endsWith('.md')) broken.push(`${where}: an anchor into a file that is not Markdown`);
          else if (!anchorsOf(fs.readFileSync(target, 'utf8')).has(anchor))
            broken.push(`${where}: no heading #${anchor}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('no table cell is over 300 characters', () => {
    const long: string[] = [];
    for (const page of PAGES) {
      proseLines(fs.readFileSync(path.join(ROOT, page), 'utf8')).forEach((line, i) => {
        if (!/^\s*\|/.test(line)) return;
        for (const cell of cellsOf(line))
          if (cell.length > 300)
            long.push(`${page}:${i + 1}: a cell of ${cell.length} characters: ${cell.slice(0, 60)}...`);
      });
    }
    expect(long).toEqual([]);
  });

  it('the README is a front page: at most 200 lines, the four patterns, the two commands, the tests and their time', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
    for (const pattern of ['idempotency', 'lock', 'ratelimit', 'semaphore']) expect(readme).toContain(pattern);
    expect(readme).toMatch(/^npm run certify\b/m);
    expect(readme).toMatch(/^npm test\b/m);
    const tests = readme.slice(readme.indexOf('\n## Tests'));
    expect(tests).toMatch(/`npm test`[^\n]*\d+ min/);
    expect(tests).toMatch(/`\.ci\/run`[^\n]*\d/);
  });

  it('anchors are computed as GitHub computes them', () => {
    expect([...anchorsOf('# A `code` title: with, punctuation\n## Same\n## Same\n')]).toEqual([
      'a-code-title-with-punctuation',
      'same',
      'same-1',
    ]);
  });
});
