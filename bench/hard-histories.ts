/**
 * Hunts for lock histories the checker finds hard (the kind that ran out of budget in a soak): legal histories of one key shaped like
 * the soak's worst runs (polling contenders, leases running out, client-link cuts, resends, refusals
 * after a cut, an optional lossy rollback; suites/unit/checker/oracle/polling-lock.ts), checked one
 * seed after another. Prints the distribution of states explored per key, every history that was
 * neither ok nor replication-loss or went past --near states, and (--save DIR) writes those as
 * history files.
 * Run: npx tsx bench/hard-histories.ts [--seeds 2000] [--from 1] [--budget 500000] [--near 20000] [--save DIR] [--lossy drawn|never|always]
 * Asserts nothing about speed. Every history is legal (replication-loss when its lossy fault rolled
 * the key back), so `illegal` would be a false alarm and `unknown` is the blow-up this hunts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { check } from '../src/checker/index.ts';
import { buildKeyProblem } from '../src/checker/problem.ts';
import { searchKey } from '../src/checker/search.ts';
import type { FaultRecord, History } from '../src/history/types.ts';
import { overlaps } from '../src/history/overlap.ts';
import { lock } from '../src/patterns/lock/model.ts';
import { pollingLockHistory } from '../suites/unit/checker/oracle/polling-lock.ts';
import { quantile } from './stats.ts';
import { PATTERNS } from '../src/patterns/index.ts';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '2000' },
    from: { type: 'string', default: '1' },
    budget: { type: 'string', default: '500000' },
    near: { type: 'string', default: '20000' },
    save: { type: 'string' },
    lossy: { type: 'string', default: 'drawn' },
  },
});
const seeds = positive('seeds', values.seeds);
const from = positive('from', values.from);
const budget = positive('budget', values.budget);
const near = positive('near', values.near);
if (!['drawn', 'never', 'always'].includes(values.lossy))
  throw new RangeError(`--lossy must be drawn, never or always, got ${values.lossy}`);
const lossy = values.lossy === 'drawn' ? undefined : values.lossy === 'always';

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`--${name} must be a positive integer, got ${text}`);
  return value;
}

interface Row {
  seed: number;
  ops: number;
  info: number;
  fail: number;
  lossy: boolean;
  verdict: string;
  states: number;
  ms: number;
}

const rows: Row[] = [];
const started = performance.now();
for (let seed = from; seed < from + seeds; seed++) {
  const { history } = pollingLockHistory(seed, { lossy });
  const t0 = performance.now();
  const result = check(history, PATTERNS.lock, { budget, minimise: false });
  const ms = performance.now() - t0;
  const key = result.keys[0];
  const row: Row = {
    seed,
    ops: history.ops.length,
    info: history.ops.filter((o) => o.outcome === 'info').length,
    fail: history.ops.filter((o) => o.outcome === 'fail').length,
    lossy: history.faults.some((f) => f.lossy),
    verdict: result.verdict,
    states: key?.statesExplored ?? 0,
    ms,
  };
  rows.push(row);
  if ((row.verdict !== 'ok' && row.verdict !== 'replication-loss') || row.states >= near) {
    console.log(
      `seed ${seed}: ${row.verdict}, ${row.states.toLocaleString('en-US')} states, ${row.ops} ops (${row.info} info, ${row.fail} fail${row.lossy ? ', lossy fault' : ''}), ${ms.toFixed(0)} ms`,
    );
    console.log(`  configurations by kind of entry: ${byKind(history, budget)}`);
    if (values.save) {
      fs.mkdirSync(values.save, { recursive: true });
      fs.writeFileSync(
        path.join(values.save, `polling-lock-seed${seed}.json`),
        `${JSON.stringify({ seed, history }, null, 1)}\n`,
      );
    }
  }
}

const states = rows.map((r) => r.states);
const notOk = rows.filter((r) => r.verdict !== 'ok' && r.verdict !== 'replication-loss');
console.log(
  `${rows.length} histories (seeds ${from}–${from + seeds - 1}), ${Math.round(
    quantile(
      rows.map((r) => r.ops),
      0.5,
    ),
  )} ops median; ` +
    `states per key: median ${quantile(states, 0.5)}, p99 ${quantile(states, 0.99)}, max ${Math.max(...states)}; ` +
    `replication-loss (the rollback the lossy fault made): ${rows.filter((r) => r.verdict === 'replication-loss').length}; neither ok nor replication-loss: ${notOk.length} (${notOk.map((r) => `${r.seed} ${r.verdict}`).join(', ') || 'none'}); ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

/**
 * Where the states of the key's searches went: configurations entered per kind of entry (answered
 * op, indeterminate op, second execution, expiry, rollback), strict and (with a lossy fault) relaxed.
 */
function byKind(history: History<any, any>, budget: number): string {
  const cuts = history.faults.filter((f) => f.cutsConnections);
  const lossy = history.faults.filter((f) => f.lossy);
  // As check() reads them: a refusal overlapping a cut may have run.
  const ops = history.ops.map((op) =>
    op.outcome === 'fail' && cuts.some((c: FaultRecord) => overlaps(c, op.invokedAt, op.completedAt))
      ? { ...op, outcome: 'info' as const }
      : op,
  );
  const searches = [false, ...(lossy.length ? [true] : [])].map((relaxed) => {
    const outcome = searchKey(buildKeyProblem(lock, ops, 25, relaxed ? lossy : [], cuts), budget, relaxed);
    return `${relaxed ? 'relaxed' : 'strict'} ${outcome.verdict} ${JSON.stringify(outcome.enteredByKind)}`;
  });
  return searches.join('; ');
}
