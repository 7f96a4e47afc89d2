// Writes each mutant's evidence-derived fields into its mutant.json from scenarios/mutants/sweep.json:
// "orNamed" (the names the sweep saw besides "expect"; removed when none) and, for CI mutants,
// "ciSeed" (the sweep's earliest catch naming "expect"). Run after a sweep with
// CHAOSLUA_WRITE_EVIDENCE=1:  npx tsx suites/certify/support/derive-expectations.ts
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadMutants, MUTANTS_ROOT } from './catalogue.ts';
import { bestSeed, mutantLabel, observedOtherNames, readEvidence } from './sweep.ts';

const evidence = readEvidence();
for (const m of loadMutants()) {
  if (!evidence.mutants[mutantLabel(m)]) {
    console.log(`${mutantLabel(m)}: no evidence, left as is`);
    continue;
  }
  const file = path.join(MUTANTS_ROOT, m.pattern, m.name, 'mutant.json');
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const others = observedOtherNames(evidence, m);
  if (others.length) json.orNamed = others;
  else delete json.orNamed;
  const best = m.gap ? undefined : bestSeed(evidence, m);
  if (best) json.ciSeed = best.seed;
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(
    `${mutantLabel(m)}: orNamed ${others.join(',') || '-'}; ciSeed ${best ? `${best.seed} (caught at run ${best.run})` : '-'}`,
  );
}
