import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { projectRoot } from '../../src/cluster/binaries.ts';
import { PATTERN_NAMES } from '../../src/patterns/index.ts';
import { ClusterPool, describeSoak, soak, type SoakFigures } from './support/soak.ts';

// `npm run test:full`: the soak. Every pattern's reference implementation under every fault for
// RUNS judged runs: no violation, no key the checker could not decide, every run judged (none
// discarded in its place) and exercised (acknowledged operations, injected faults). The figures
// (runs, operations, faults, search states per key: median and maximum) are printed and written to
// reports/soak.json; the README's benchmark table quotes them.
//
// The patterns soak side by side, all at once by default, each on LANES clusters of its own (one
// job's lanes, as `--clusters` deals them: the same draws as on one cluster). A run is mostly
// waiting (fault windows, heals, timeouts), not computing: on this 2-core box a pattern's 300 runs
// took 17-21 min two patterns at a time and about as long four at a time (21 min for all four, on
// one cluster each), which is why lanes shorten the soak. Sharing two cores between that many
// clusters makes every run slower and its timing noisier; a correct implementation must pass
// however loaded the machine, so that is a harder soak, not a weaker one. A failure writes its
// counterexample to reports/. CHAOSLUA_SOAK_RUNS, CHAOSLUA_SOAK_LANES (clusters per pattern) and
// CHAOSLUA_SOAK_CLUSTERS (clusters at once, at most) change them; CHAOSLUA_SOAK_SEED (the first
// pattern's seed, the others the next ones) soaks other schedules than CI's, to hunt false alarms.
// CHAOSLUA_SOAK_FAULTS (a --faults list; CI's is all,clocks: the server clock faults too, since
// 2026-12-07, bench/results/soak-clocks.md) soaks under others.

// A pattern can be quarantined, visibly (a skipped case, never a pass), with
// CHAOSLUA_SOAK_QUARANTINE=lock[,...]: for a soak that found a false alarm while its cause is being
// fixed. None is by default. The lock was, until the search's fixes for polling clients decided the history whose
// search ran out of budget (a key of polling contenders around client-link cuts); it then soaked
// beside the other three, 300 runs each, 0 keys undecided (README, benchmarks).
// gcra was, for a day: its soak of 2026-12-05 (seed 20261205) failed run 238 of 300 on the reference
// for model-conformance. The model freed both places of a hit resent after a cut link at its first
// expiry (they share one tag); each expiry now frees one (suites/unit/patterns/gcra/model.test.ts
// replays that history).
const QUARANTINED = (process.env.CHAOSLUA_SOAK_QUARANTINE ?? '').split(',').filter(Boolean);
const SOAKED = PATTERN_NAMES.filter((p) => !QUARANTINED.includes(p));
// 250 in CI since the clock faults joined it (2026-12-07), to keep .ci/run inside its hour; the
// longer run, 300 a pattern, is CHAOSLUA_SOAK_RUNS=300 (bench/results/soak-clocks.md).
const RUNS = Number(process.env.CHAOSLUA_SOAK_RUNS ?? 250);
const LANES = Number(process.env.CHAOSLUA_SOAK_LANES ?? 2);
const CLUSTERS = Number(process.env.CHAOSLUA_SOAK_CLUSTERS ?? SOAKED.length * LANES);
const SEED = Number(process.env.CHAOSLUA_SOAK_SEED ?? 20_261_201);
if (!Number.isSafeInteger(SEED) || SEED < 0)
  throw new Error(`CHAOSLUA_SOAK_SEED must be a whole number, not ${process.env.CHAOSLUA_SOAK_SEED}`);
const COMMAND = 'npx vitest run --config vitest.full.config.ts suites/chaos/soak.full.test.ts';
const pool = new ClusterPool(Math.max(1, Math.floor(CLUSTERS / LANES)), LANES);
const figures: Record<string, SoakFigures> = {};
const started = Date.now();

/** After every pattern, so that an interrupted soak keeps what it measured. */
function record(f: SoakFigures): void {
  figures[f.pattern] = f;
  const out = path.join(projectRoot, 'reports', 'soak.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const wallSeconds = Math.round((Date.now() - started) / 1000);
  fs.writeFileSync(
    out,
    `${JSON.stringify({ command: COMMAND, runsPerPattern: RUNS, clusters: CLUSTERS, lanesPerPattern: LANES, wallSeconds, patterns: figures }, null, 2)}\n`,
  );
}

afterAll(async () => {
  await pool.dispose();
  console.log(
    `soak: ${Object.keys(figures).length} patterns, ${LANES} clusters each, ${CLUSTERS} at a time, ${Math.round((Date.now() - started) / 1000)} s wall`,
  );
});

describe.concurrent('soak: every reference implementation under every fault', () => {
  for (const [i, pattern] of PATTERN_NAMES.entries()) {
    const seed = SEED + i;
    it.skipIf(!SOAKED.includes(pattern))(
      `${pattern}: ${RUNS} judged runs (seed ${seed}), no violation, no key undecided`,
      async ({ expect }) => {
        const f = await pool.use((clusters) => soak(clusters, pattern, RUNS, seed));
        record(f);
        console.log(describeSoak(f));
        expect(f.failure, f.failure).toBeUndefined();
        expect(f.failures).toBe(0);
        // A key the search cannot decide within its budget is a limit of the checker, not a verdict, but
        // a certify that meets one does not certify: to its user, a correct implementation refused. So
        // none is allowed; its history is kept in reports/ for the checker's fix (bench/results/hard/
        // holds the last one CI met, now decided by the second scan order: src/checker/search/passes.ts).
        expect(f.unknownKeys, `keys the checker could not decide: ${f.undecided}`).toBe(0);
        // Judged, not discarded: every run asked was judged, and discarded runs never count among them.
        expect(f.runs).toBe(RUNS);
        expect(f.discarded, f.discardCauses.join('\n')).toBeLessThan(RUNS);
        // Exercised: clients were acknowledged, faults were injected, and every key was searched.
        expect(f.acknowledged).toBeGreaterThan(f.ops / 10);
        expect(f.faults).toBeGreaterThan(RUNS);
        expect(f.states.keys).toBeGreaterThanOrEqual(RUNS);
      },
      600_000 + RUNS * 60_000,
    );
  }
});
