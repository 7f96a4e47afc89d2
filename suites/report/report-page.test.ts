/**
 * report.html in a real browser: headless Chromium loads each page through file://, as a person
 * double-clicking it would. The run folders are real runs captured once (fixtures/README.md): a
 * pass of the reference scripts and three failures of a mutant whose complete.lua lost its owner check
 * (the third's history also moves server and client clocks).
 * Screenshots land in reports/screenshots/ for a person to look at.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Counterexample } from '../../src/report/counterexample.ts';
import { writeReportFiles } from '../../src/report/html/write.ts';
import { launchChromium } from './support/browser.ts';

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
const SCREENSHOTS = path.resolve('reports/screenshots');
const RUNS = {
  passing: '20261130-080448-run-1',
  freeze: '20261130-081012-run-7',
  kill: '20261130-080725-run-23',
  clocks: '20261206-202259-run-clock',
};

let browser: Browser;
let root: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-report-page-'));
  for (const name of Object.values(RUNS))
    fs.cpSync(path.join(FIXTURES, name), path.join(root, name), { recursive: true });
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

interface Loaded {
  readonly page: Page;
  readonly url: string;
  readonly requests: string[];
  readonly errors: string[];
}

async function load(file: string): Promise<Loaded> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const url = pathToFileURL(file).href;
  await page.goto(url, { waitUntil: 'load' });
  return { page, url, requests, errors };
}

const counterexample = (run: string) =>
  JSON.parse(fs.readFileSync(path.join(root, run, 'counterexample.json'), 'utf8')) as Counterexample;

describe.each([
  ['freeze', RUNS.freeze],
  ['kill', RUNS.kill],
])('a failing run (%s)', (label, run) => {
  it('shows the verdict, one lane per client, the witnesses, and asks the network for nothing', async () => {
    const { page, url, requests, errors } = await load(writeReportFiles(path.join(root, run)));
    try {
      const ce = counterexample(run);
      expect(await page.locator('#verdict').textContent()).toBe('FAILED');
      expect(await page.locator('#replay').textContent()).toContain(`${run}/counterexample.json`);
      expect(await page.locator('.violation .sentence').first().textContent()).toBe(ce.result.violations[0].message);

      const clients = new Set(ce.history.ops.map((o) => o.client));
      expect(await page.locator('.tl-labels text.client').count()).toBe(clients.size);
      expect(await page.locator('#tl-plot').getAttribute('data-lanes')).toBe(String(clients.size));

      const witnessIds = [...new Set(ce.result.violations.flatMap((v) => v.witness.map((o) => o.id)))].sort(
        (a, b) => a - b,
      );
      const drawn = await page
        .locator('#tl-plot rect.witness')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-op-id'))));
      expect(drawn.sort((a, b) => a - b)).toEqual(witnessIds);
      expect(await page.locator('#tl-plot rect.op').count()).toBe(ce.history.ops.length);
      expect(await page.locator('#tl-plot rect.fault').count()).toBe(ce.history.faults.length);
      expect(await page.locator('#tl-plot rect.lease').count()).toBeGreaterThan(0);

      // Hovering a witness bar shows its input and output in the delegated tooltip.
      const first = page.locator(`#tl-plot rect.op[data-op-id="${witnessIds[0]}"]`);
      await first.hover({ force: true });
      const tip = page.locator('#tl-tip');
      await expect.poll(() => tip.isVisible()).toBe(true);
      expect(await tip.textContent()).toContain(`op ${witnessIds[0]} · client`);

      // Hovering a witness in the violation's list outlines its bar.
      await page.locator(`.violation .wref[data-op-id="${witnessIds[0]}"]`).hover();
      expect(await first.getAttribute('class')).toContain('hl');

      // Zoom stretches the plot; the lanes stay.
      const before = Number(await page.locator('#tl-plot').getAttribute('width'));
      await page.locator('button[data-zoom="in"]').click();
      expect(Number(await page.locator('#tl-plot').getAttribute('width'))).toBe(before * 2);

      expect(await page.locator('table.coverage tr[data-transition]').count()).toBeGreaterThanOrEqual(6);
      expect(
        await page.locator('.metric[data-metric="idempotency_script_duration_ms"] .series').count(),
      ).toBeGreaterThan(0);
      await page.locator('button[data-zoom="fit"]').click();
      await page.mouse.move(0, 0);
      await page.screenshot({ path: path.join(SCREENSHOTS, `failing-${label}.png`), fullPage: true });
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
    } finally {
      await page.close();
    }
  });
});

describe('a run whose clocks moved', () => {
  it("plots each moved node's offset and each skewed client's between the nemesis row and the lanes", async () => {
    const { page, url, requests, errors } = await load(writeReportFiles(path.join(root, RUNS.clocks)));
    try {
      const ce = counterexample(RUNS.clocks);
      const nodes = await page
        .locator('#tl-plot polyline.clock-line')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-clock-node')));
      expect(nodes).toEqual(['n2', 'n1', 'n4']);
      expect(await page.locator('#tl-plot line.clock-line.client').count()).toBe(
        ce.history.faults.filter((f) => f.kind === 'client-clock').length,
      );
      const label = page.locator('#tl-plot text.clocklabel', { hasText: 'n2 +1000 ms from 140.6 ms to 668.4 ms' });
      expect(await label.isVisible()).toBe(true);
      expect(await page.locator('.tl-labels text.clock-name').allTextContents()).toEqual([
        'n2 clock',
        'n1 clock',
        'n4 clock',
        'c0 clock',
        'c1 clock',
      ]);

      // The rows sit below the nemesis row and above every client's lane, and the step is drawn: the
      // line rises above its dashed true line while the jump holds.
      const jump = await page.locator('#tl-plot polyline[data-clock-node="n2"]').boundingBox();
      const faultBar = await page.locator('#tl-plot rect.fault').first().boundingBox();
      const firstOp = Math.min(
        ...(await page.locator('#tl-plot rect.op').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top))),
      );
      expect(jump!.y).toBeGreaterThan(faultBar!.y + faultBar!.height);
      expect(jump!.y + jump!.height).toBeLessThan(firstOp);
      expect(jump!.height).toBeGreaterThan(8);

      // Zoom stretches the line, never its words.
      const x = Number(await label.getAttribute('x'));
      await page.locator('button[data-zoom="in"]').click();
      expect(Number(await label.getAttribute('x'))).toBeCloseTo(x * 2, 0);
      await page.locator('button[data-zoom="fit"]').click();

      expect(await page.locator('#clock-assumption li').count()).toBe(3);
      await page.mouse.move(0, 0);
      await page.locator('#timeline').screenshot({ path: path.join(SCREENSHOTS, 'clocks-timeline.png') });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'clocks.png'), fullPage: true });
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
    } finally {
      await page.close();
    }
  });
});

describe('a passing run and the index', () => {
  it('shows PASSED, the metrics, and no timeline', async () => {
    const { page, url, requests, errors } = await load(writeReportFiles(path.join(root, RUNS.passing)));
    try {
      expect(await page.locator('#verdict').textContent()).toBe('PASSED');
      expect(await page.locator('#tl-plot').count()).toBe(0);
      expect(
        await page.locator('.metric[data-metric="idempotency_stale_completion_rejected_total"] .big').textContent(),
      ).toMatch(/^\d+$/);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'passing.png'), fullPage: true });
      expect(errors).toEqual([]);
      expect(requests).toEqual([url]);
    } finally {
      await page.close();
    }
  });

  it('lists every run newest first, with links that resolve on disk', async () => {
    const { page, url, requests } = await load(path.join(root, 'index.html'));
    try {
      const rows = await page
        .locator('tr.run')
        .evaluateAll((els) => els.map((e) => [e.getAttribute('data-run'), e.querySelector('td')?.textContent]));
      expect(rows).toEqual([
        [RUNS.clocks, 'FAILED'],
        [RUNS.freeze, 'FAILED'],
        [RUNS.kill, 'FAILED'],
        [RUNS.passing, 'PASSED'],
      ]);
      const hrefs = await page.locator('tr.run a').evaluateAll((els) => els.map((e) => e.getAttribute('href') ?? ''));
      expect(hrefs).toHaveLength(4);
      for (const href of hrefs) expect(fs.existsSync(new URL(href, url).pathname)).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'index.png'), fullPage: true });
      expect(requests).toEqual([url]);
    } finally {
      await page.close();
    }
  });
});
