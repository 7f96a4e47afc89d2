/**
 * How fast report.html renders (Node) and loads (headless Chromium) for a large failing history.
 * Run: npx tsx bench/report.ts [--ops 10000] [--clients 8] [--keys 16] [--loads 7] [--seed 1]
 *
 * The history is legal by construction (linearHistory runs the model at chosen instants), with
 * info and fail outcomes and fault bands mixed in; one acknowledged register is then made to
 * answer `fresh` while another owner holds the key, so the checker reports a real violation with
 * witnesses and the page draws everything a failure page has. Prints figures; asserts nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { check, linearHistory, type PlannedOp, type PlannedOutcome } from '../src/checker/index.ts';
import type { FaultKind, FaultRecord, History, OpRecord } from '../src/history/types.ts';
import { idempotency, type IdempotencyInput } from '../src/patterns/models.ts';
import { PATTERNS } from '../src/patterns/index.ts';
import { COUNTEREXAMPLE_VERSION, type Counterexample } from '../src/report/counterexample.ts';
import { renderReport } from '../src/report/html/page.ts';
import { parseMetrics } from '../src/report/metrics-file.ts';
import { launchChromium } from '../suites/report/support/browser.ts';
import { fmt, median } from './stats.ts';

const { values } = parseArgs({
  options: {
    ops: { type: 'string', default: '10000' },
    clients: { type: 'string', default: '8' },
    keys: { type: 'string', default: '16' },
    loads: { type: 'string', default: '7' },
    seed: { type: 'string', default: '1' },
  },
});
const positive = (name: string, text: string) => {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`--${name} must be a positive integer, got ${text}`);
  return n;
};
const totalOps = positive('ops', values.ops);
const clientCount = positive('clients', values.clients);
const keyCount = positive('keys', values.keys);
const loads = positive('loads', values.loads);
const seed = positive('seed', values.seed);
console.log(
  `npx tsx bench/report.ts --ops ${totalOps} --clients ${clientCount} --keys ${keyCount} --loads ${loads} --seed ${seed}`,
);
console.log(
  `one ${totalOps}-operation failing history rendered, then loaded in headless Chromium ${loads} times; median load`,
);

/** mulberry32, as in bench/checker.ts. */
function rng(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each client runs its ops one after another, as the runner's logical clients do. */
function plan(random: () => number): PlannedOp<IdempotencyInput>[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const planned: PlannedOp<IdempotencyInput>[] = [];
  const perClient = Math.ceil(totalOps / clientCount);
  for (let c = 0; c < clientCount; c++) {
    let t = random() * 5;
    for (let i = 0; i < perClient && planned.length < totalOps; i++) {
      const key = `k${Math.floor(random() * keyCount)}`;
      const owner = `c${c}a${Math.floor(i / 4)}`;
      const roll = random();
      const input: IdempotencyInput =
        roll < 0.4
          ? { op: 'register', fingerprint: 'fp', owner, leaseMs: pick([50, 250, 1000]) }
          : roll < 0.7
            ? { op: 'complete', owner, status: '200', body: `resp-${owner}`, ttlMs: pick([200, 800]) }
            : roll < 0.85
              ? { op: 'release', owner }
              : { op: 'renew', owner, leaseMs: 250 };
      const o = random();
      const outcome: PlannedOutcome = o < 0.94 ? 'ok' : o < 0.96 ? 'info-applied' : o < 0.97 ? 'info-lost' : 'fail';
      const leadMs = 0.2 + random() * 1.5;
      const lagMs = 0.2 + random();
      planned.push({ key, client: c, input, at: t + leadMs, leadMs, lagMs, outcome });
      t += leadMs + lagMs + random() * 8;
    }
  }
  return planned;
}

function faults(random: () => number, end: number): FaultRecord[] {
  const kinds: FaultKind[] = [
    'client-freeze',
    'node-freeze',
    'toxic',
    'failover-default',
    'script-flush',
    'kill-restart',
    'failover-force',
  ];
  const out: FaultRecord[] = [];
  for (let t = 200, id = 1_000_000; t < end; t += 200 + random() * 800, id++) {
    const kind = kinds[id % kinds.length];
    const ms = kind === 'script-flush' ? 5 : 100 + random() * 1200;
    out.push({
      type: 'fault',
      id,
      kind,
      target: `node ${id % 6}`,
      startedAt: t,
      endedAt: Math.min(end, t + ms),
      lossy: kind === 'failover-force' || kind === 'kill-restart',
      detail: `${kind} for ${Math.round(ms)} ms`,
    });
  }
  return out;
}

/** The first acknowledged `hit(pending)` register now claims `fresh`: two owners hold the key. */
function plantViolation(history: History): History {
  let planted = false;
  const ops = history.ops.map((op): OpRecord => {
    const out = op.output as unknown[] | undefined;
    if (
      planted ||
      op.outcome !== 'ok' ||
      !Array.isArray(out) ||
      out[0] !== 'hit' ||
      out[1] !== 'pending' ||
      op.invokedAt < 1000
    )
      return op;
    planted = true;
    return { ...op, output: ['fresh'] };
  });
  if (!planted) throw new Error('no register to plant a violation on; try another --seed');
  return { ...history, ops };
}

const random = rng(seed);
const legal = linearHistory(idempotency, plan(random)) as History;
const end = Math.max(...legal.ops.map((o) => o.completedAt));
const history = plantViolation({ ...legal, faults: faults(random, end) });
const t0 = performance.now();
const result = check(history, PATTERNS.idempotency);
const checkMs = performance.now() - t0;
const counterexample: Counterexample = {
  version: COUNTEREXAMPLE_VERSION,
  pattern: 'idempotency',
  impl: 'bench (synthetic history)',
  seed,
  options: {},
  schedule: { pattern: 'idempotency', keys: keyCount, clients: [], faults: [] },
  scheduleText: '(synthetic)',
  history,
  result,
};
const fixture = new URL('../suites/report/fixtures/20261130-081012-run-7/metrics.prom', import.meta.url);
const data = {
  dir: 'reports/bench',
  result: {
    command: 'run',
    passed: false,
    pattern: 'idempotency',
    impl: 'bench',
    seed,
    runs: 1,
    operations: history.ops.length,
    seconds: end / 1000,
  },
  counterexample,
  metrics: parseMetrics(fs.readFileSync(fixture, 'utf8')),
};

const renders: number[] = [];
let html = '';
for (let i = 0; i < 5; i++) {
  const s = performance.now();
  html = renderReport(data);
  renders.push(performance.now() - s);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-bench-report-'));
const file = path.join(dir, 'report.html');
fs.writeFileSync(file, html);
const url = pathToFileURL(file).href;

const browser = await launchChromium();
const wall: number[] = [];
const parsed: number[] = [];
const loadEvent: number[] = [];
const painted: number[] = [];
const zoom: number[] = [];
try {
  // One warm-up load (Chromium's first page pays for its own start-up), then the measured ones.
  for (let i = 0; i <= loads; i++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const s = performance.now();
    await page.goto(url, { waitUntil: 'load' });
    // Until the first frame after load is painted: what a person waits for.
    // (Page code is passed as strings: the project compiles without the DOM library.)
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const w = performance.now() - s;
    const nav = (await page.evaluate(
      "(() => { const n = performance.getEntriesByType('navigation')[0]; const p = performance.getEntriesByName('first-contentful-paint')[0]; return [n.domInteractive, n.loadEventEnd, p ? p.startTime : NaN]; })()",
    )) as [number, number, number];
    const z = (await page.evaluate(`new Promise((resolve) => {
      const s2 = performance.now();
      document.querySelector('button[data-zoom="in"]').click();
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - s2)));
    })`)) as number;
    if (i > 0) {
      wall.push(w);
      parsed.push(nav[0]);
      loadEvent.push(nav[1]);
      painted.push(nav[2]);
      zoom.push(z);
    }
    await page.close();
  }
} finally {
  await browser.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

const illegal = result.keys.filter((k) => k.verdict === 'illegal').length;
console.log(
  `history: ${history.ops.length} ops, ${clientCount} clients, ${keyCount} keys, ${history.faults.length} faults, ${(end / 1000).toFixed(1)} s; checker ${checkMs.toFixed(0)} ms, ${result.violations.length} violation(s) on ${illegal} key(s)`,
);
console.log(`report.html: ${(html.length / 1024 / 1024).toFixed(2)} MiB`);
console.log(`render (Node, median of ${renders.length}):            ${fmt(median(renders))}`);
console.log(
  `load in Chromium, goto → 2nd frame (median of ${loads}):  ${fmt(median(wall))}   [min ${fmt(Math.min(...wall))}, max ${fmt(Math.max(...wall))}]`,
);
console.log(
  `  navigation timing (median): parsed (domInteractive) ${fmt(median(parsed))}, loadEventEnd ${fmt(median(loadEvent))}, first contentful paint ${fmt(median(painted))}`,
);
console.log(`zoom ×2, click → 2nd frame (median):         ${fmt(median(zoom))}`);
