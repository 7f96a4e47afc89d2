import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../../src/cluster/binaries.ts';
import type { PatternName } from '../../../src/patterns/index.ts';
import { PATTERN_NAMES } from '../../../src/patterns/index.ts';

/** One entry of scenarios/mutants/<pattern>/<name>/mutant.json. */
export interface Mutant {
  readonly name: string;
  readonly pattern: PatternName;
  readonly kind: 'lua' | 'module';
  /** The operation(s) the slip is in, comma-separated, as the pattern's registry entry names them (register, acquire, hit, ...). */
  readonly operation: string;
  /** The mistake a real team makes, in one sentence. */
  readonly slip: string;
  /** The invariant (or finding) the harness must name when it rejects the mutant. */
  readonly expect: string;
  /** What has to happen in a schedule for the slip to show. */
  readonly showsWith: string;
  /** Other invariants the same slip can break first, depending on the schedule (it is still caught). */
  readonly orNamed?: readonly string[];
  /** CI cap on runs, for a slip the generator reaches rarely (default: the suite's). */
  readonly ciRuns?: number;
  /** The seed `npm test` runs it with: one the sweep (scenarios/mutants/sweep.json) saw catching it early. */
  readonly ciSeed?: number;
  /** Why the harness does not catch it within the CI budget; such mutants run only on request. */
  readonly gap?: string;
  /** Why its catch takes tens of runs: it is caught every time, but in `npm run test:full`, not `npm test`. */
  readonly slow?: string;
  /** lua: the one script that carries the slip; every other script is the reference's. */
  readonly mutated?: string;
  /** lua: the reference script the mutated one was copied from, when not its namesake. */
  readonly copiedFrom?: string;
  /** lua: the linter rules that flag it (empty: no static defect, only the dynamic checks see it). */
  readonly lint?: readonly string[];
  /** A backend it needs besides the shared local cluster (netns: partitions); such mutants have their own suite. */
  readonly backend?: 'netns';
  /** The `--durability wait:N:T` it is certified with. */
  readonly durability?: string;
  /** The directory (lua:) or store.ts (module:) to certify. */
  readonly impl: string;
}

export const MUTANTS_ROOT = path.join(projectRoot, 'scenarios', 'mutants');
export const ALTERNATIVES_ROOT = path.join(projectRoot, 'scenarios', 'alternatives');
/** Every registered pattern has a mutants folder and an alternatives folder. */
const PATTERNS: readonly PatternName[] = PATTERN_NAMES;

function parseMutant(dir: string, pattern: PatternName): Mutant {
  const file = path.join(dir, 'mutant.json');
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Omit<Mutant, 'impl'>;
  const problem = (what: string) => new Error(`${file}: ${what}`);
  for (const field of ['name', 'operation', 'slip', 'expect', 'showsWith'] as const) {
    if (typeof raw[field] !== 'string' || raw[field] === '') throw problem(`"${field}" must be a non-empty string`);
  }
  if (raw.name !== path.basename(dir)) throw problem(`"name" must be the directory's name, ${path.basename(dir)}`);
  if (raw.orNamed !== undefined && !(Array.isArray(raw.orNamed) && raw.orNamed.every((n) => typeof n === 'string')))
    throw problem('"orNamed" must be a list of names');
  if (raw.gap !== undefined && (typeof raw.gap !== 'string' || raw.gap === ''))
    throw problem('"gap" must say why the harness misses it');
  if (raw.slow !== undefined && (typeof raw.slow !== 'string' || raw.slow === ''))
    throw problem('"slow" must say why its catch takes many runs');
  if (raw.slow !== undefined && raw.gap !== undefined)
    throw problem('a mutant is "slow" (caught, in test:full) or a "gap" (missed), not both');
  if (raw.ciRuns !== undefined && !(Number.isInteger(raw.ciRuns) && raw.ciRuns > 0))
    throw problem('"ciRuns" must be a positive integer');
  if (raw.ciSeed !== undefined && !(Number.isInteger(raw.ciSeed) && raw.ciSeed >= 0))
    throw problem('"ciSeed" must be a non-negative integer');
  if (raw.pattern !== pattern) throw problem(`"pattern" must be ${pattern} (the directory it sits in)`);
  if (raw.backend !== undefined && raw.backend !== 'netns') throw problem('"backend" must be netns when present');
  if (raw.durability !== undefined && !/^wait:\d+:\d+$/.test(raw.durability))
    throw problem('"durability" must be wait:N:TIMEOUT');
  if (raw.kind === 'lua') {
    if (typeof raw.mutated !== 'string' || !existsSync(path.join(dir, raw.mutated)))
      throw problem('a lua mutant names its "mutated" script');
    if (!Array.isArray(raw.lint)) throw problem('a lua mutant lists the "lint" rules that flag it ([] for none)');
    return { ...raw, impl: dir };
  }
  if (raw.kind === 'module') {
    const store = path.join(dir, 'store.ts');
    if (!existsSync(store)) throw problem('a module mutant has a store.ts');
    return { ...raw, impl: store };
  }
  throw problem(`"kind" must be lua or module, got ${String(raw.kind)}`);
}

/**
 * Every mutant the shared local cluster can reject, by pattern then name. Malformed entries throw: a
 * catalogue typo must not pass quietly. Those needing another backend: loadBackendMutants.
 */
export function loadMutants(): Mutant[] {
  return loadEveryMutant().filter((m) => m.backend === undefined);
}

/** The mutants only a backend of their own shows (netns partitions): suites/certify/netns-mutants.full.test.ts. */
export function loadBackendMutants(backend: 'netns'): Mutant[] {
  return loadEveryMutant().filter((m) => m.backend === backend);
}

function loadEveryMutant(): Mutant[] {
  const mutants: Mutant[] = [];
  for (const pattern of PATTERNS) {
    const root = path.join(MUTANTS_ROOT, pattern);
    // A dot folder is not a mutant: a certify run from one leaves its corpus (.chaoslua/) beside it.
    for (const name of readdirSync(root).sort()) {
      if (!name.startsWith('.')) mutants.push(parseMutant(path.join(root, name), pattern));
    }
  }
  return mutants;
}

/** An alternative correct implementation: scenarios/alternatives/<pattern>/<name>/ (Lua scripts or store.ts). */
export interface Alternative {
  readonly name: string;
  readonly pattern: PatternName;
  readonly kind: 'lua' | 'module';
  readonly impl: string;
}

export function loadAlternatives(): Alternative[] {
  const found: Alternative[] = [];
  for (const pattern of PATTERNS) {
    const root = path.join(ALTERNATIVES_ROOT, pattern);
    for (const name of readdirSync(root).sort()) {
      const dir = path.join(root, name);
      const store = path.join(dir, 'store.ts');
      found.push(
        existsSync(store) ? { name, pattern, kind: 'module', impl: store } : { name, pattern, kind: 'lua', impl: dir },
      );
    }
  }
  return found;
}

/** The names a rejection of this mutant may carry. */
export const acceptableNames = (m: Mutant): string[] => [m.expect, ...(m.orNamed ?? [])];

export const operationsOf = (m: Mutant): string[] => m.operation.split(',').map((op) => op.trim());
