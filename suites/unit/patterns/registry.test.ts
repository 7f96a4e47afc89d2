// Each registry entry agrees with itself: the stages trust a pattern's declarations (the module
// contract passes arguments in the declared order, counterexample files are checked against the
// declared types, certificates list the declared invariants), so a declaration that drifted from the
// model or the sessions would misreport silently.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scheduleArbitrary } from '../../../src/generator/index.ts';
import { operationsOf, PATTERN_NAMES, PATTERNS, patternNamed, patternOfModel } from '../../../src/patterns/index.ts';
import type { AnyPattern, ArgType } from '../../../src/patterns/types.ts';

const fits = (type: ArgType, value: unknown) =>
  type === 'string'
    ? typeof value === 'string'
    : Number.isSafeInteger(value) && (value as number) >= (type === 'integer>=1' ? 1 : 0);

describe('the pattern registry', () => {
  it('names each pattern by its key, its model and its scripts folder alike', () => {
    expect(PATTERN_NAMES).toEqual(['idempotency', 'lock', 'ratelimit', 'semaphore', 'gcra']);
    for (const name of PATTERN_NAMES) {
      expect(PATTERNS[name].name).toBe(name);
      expect(PATTERNS[name].model.name).toBe(name);
      expect(patternOfModel(name)).toBe(PATTERNS[name]);
    }
    expect(patternOfModel('register')).toBeUndefined();
    expect(() => patternNamed('queue', 'test')).toThrow(
      "test: unknown pattern 'queue' (known: idempotency, lock, ratelimit, semaphore, gcra; or a pattern file: --pattern ./my-pattern.mjs)",
    );
  });

  it.each(PATTERN_NAMES)('%s: invariants, priorities, probes and transitions are consistent', (name) => {
    const p = PATTERNS[name];
    const invariants: readonly string[] = p.invariants;
    expect(invariants.at(-1)).toBe('model-conformance');
    expect(new Set(invariants).size).toBe(invariants.length);
    for (const named of p.classifyPriority) expect(invariants).toContain(named);
    expect(invariants).toContain(p.noTtl.invariant);
    const transitions: readonly string[] = p.transitions;
    for (const t of p.requiredTransitions) expect(transitions).toContain(t.transition);
    expect(new Set(Object.values(operationsOf(name)).map((o) => o.method)).size).toBe(
      Object.keys(operationsOf(name)).length,
    );
  });

  it.each(PATTERN_NAMES)(
    '%s: levels, holder handles and the operations transitions need name what the pattern has',
    (name) => {
      const p: AnyPattern = PATTERNS[name];
      const operations = Object.keys(p.operations);
      for (const [op, levels] of Object.entries(p.levels)) {
        expect(operations).toContain(op);
        const names = levels.map((l) => l.name);
        expect(new Set(names).size, op).toBe(names.length);
        expect(names).not.toContain('exact');
        for (const level of levels)
          for (const inv of level.witnesses) expect(p.invariants, `${op} ${level.name}`).toContain(inv);
      }
      for (const op of p.holder?.handedOutBy ?? []) expect(operations).toContain(op);
      for (const t of p.requiredTransitions) {
        expect(t.needs, t.transition).toBeDefined();
        for (const op of t.needs!) expect(operations).toContain(op);
        // The operation a transition is named after is among those it needs.
        const by = t.transition.split(' by ')[1];
        if (by !== 'expiry') expect(t.needs).toContain(by);
      }
    },
  );

  it.each(PATTERN_NAMES)(
    '%s: every input its sessions draw has exactly the declared arguments, of the declared types',
    (name) => {
      const operations = operationsOf(name);
      fc.assert(
        fc.property(scheduleArbitrary({ pattern: PATTERNS[name], clients: [1, 3], keys: [1, 2] }), (schedule) => {
          for (const steps of schedule.clients) {
            for (const step of steps) {
              if (step.type !== 'op') continue;
              const { op, ...args } = step.input as { op: string } & Record<string, unknown>;
              expect(Object.keys(operations)).toContain(op);
              const declared = operations[op].args;
              expect(Object.keys(args).sort()).toEqual(Object.keys(declared).sort());
              for (const [arg, type] of Object.entries(declared))
                expect(fits(type, args[arg]), `${op}.${arg} = ${String(args[arg])}`).toBe(true);
            }
          }
        }),
        { numRuns: 30 },
      );
    },
  );
});
