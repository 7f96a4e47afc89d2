/**
 * A team's pattern spec made into the pattern every stage takes: the model the checker searches
 * (leases mapped onto its expiry operations), the sessions and races the generator draws, the
 * reference client a `lua:DIR` implementation runs under, and the defaults of every opt-in group.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Model } from '../../model/types.ts';
import { opPhrase } from '../../checker/describe.ts';
import type { Classifier } from '../../checker/invariants/types.ts';
import { withLevels } from '../levels.ts';
import { leaseSettings } from '../time-scale.ts';
import type { AnyPattern, ArgType, Operation } from '../types.ts';
import { replyMatches, describeReply } from './replies.ts';
import { deriveHolderHints } from './holder-hints.ts';
import { sampleInputs } from './holder-probes.ts';
import { derivedRaces } from './races.ts';
import { ScriptedSubject, type ScriptCalls } from './scripted-subject.ts';
import { defaultSession } from './session.ts';
import type { PatternSpec } from './spec.ts';
import { validatePatternSpec } from './validate.ts';

type Input = { readonly op: string } & Readonly<Record<string, unknown>>;

/** Where a pattern came from, as its certificate names it. */
export interface PatternSource {
  readonly file: string;
  readonly sha256: string;
}

/** The reference scripts' folder: `scripts` beside the file (default `lua`, when there is one). */
function referenceDirOf(spec: PatternSpec, source: PatternSource | undefined): string | undefined {
  if (!source) return undefined;
  const dir = path.resolve(path.dirname(source.file), spec.scripts ?? 'lua');
  return spec.scripts !== undefined || fs.existsSync(dir) ? dir : undefined;
}

const json = (value: unknown): string => JSON.stringify(value) ?? 'undefined';

/** The length of what `input` sets, in ms (a range when only its bounds are known), per the spec's leases. */
function leaseOf(spec: PatternSpec): (input: Input) => number | readonly [number, number] | undefined {
  return (input) => {
    const lease = spec.operations[input.op]?.lease;
    if (lease === undefined) return undefined;
    if (typeof lease === 'string') return typeof input[lease] === 'number' ? (input[lease] as number) : undefined;
    return lease.ms(input);
  };
}

/** What the default sessions stall past: the longest a lease can last. */
function longestLease(spec: PatternSpec): (input: Input) => number | undefined {
  const lease = leaseOf(spec);
  return (input) => {
    const ms = lease(input);
    return Array.isArray(ms) ? ms[1] : (ms as number | undefined);
  };
}

function compileModel(spec: PatternSpec): Model<unknown, Input, unknown> {
  const m = spec.model;
  const lease = leaseOf(spec);
  const leases = m.leases ? (state: unknown) => m.leases!(state) : undefined;
  const ranged = Object.values(spec.operations).some((op) => typeof op.lease === 'object');
  const base: Model<unknown, Input, unknown> = {
    name: spec.name,
    init: () => m.init(),
    step: (state, input, id) => m.step(state, input, id),
    expire: (state, tag) => (m.expire ? m.expire(state, tag) : state),
    leaseTag: m.firstLease
      ? (state) => m.firstLease!(state)
      : (state) => {
          // The model's lease list is asked once: it may build a fresh array each time.
          const tags = leases ? leases(state) : [];
          return tags.length ? Math.min(...tags) : null;
        },
    ...(leases ? { leaseTags: leases } : {}),
    // One length where a range is known: its shortest (LeaseRule).
    expiryMs: (input) => {
      const ms = lease(input);
      return Array.isArray(ms) ? ms[0] : (ms as number | undefined);
    },
    ...(ranged
      ? {
          // A range only where the rule gives one: elsewhere the checker reads expiryMs, as it would.
          expiryRangeMs: (input: Input) => {
            const ms = lease(input);
            return Array.isArray(ms) ? (ms as readonly [number, number]) : undefined;
          },
        }
      : {}),
    outputMatches: (expected, observed) =>
      m.matches ? m.matches(expected, observed) : replyMatches(expected, observed),
    hashState: (state) => (m.hash ? m.hash(state) : json(state)),
    describeInput: m.describeInput
      ? (input) => m.describeInput!(input)
      : (input) =>
          `${input.op}(${Object.entries(input)
            .flatMap(([k, v]) => (k === 'op' ? [] : [`${k}=${json(v)}`]))
            .join(', ')})`,
    describeOutput: m.describeOutput ? (output) => m.describeOutput!(output) : describeReply,
    describeState: (state) => (m.describe ? m.describe(state) : json(state)),
    ...(m.kind ? { stateKind: (state: unknown) => m.kind!(state) } : {}),
  };
  // The lookahead a team declares, else the one derived when its operations name holders; `search: {}` asks for none.
  return { ...(spec.search ?? deriveHolderHints(spec, base) ?? {}), ...base };
}

/**
 * Does `op` take a lease on a key nobody touched? Stepped from the model's initial state on a few of
 * its inputs, drawn as a session draws them: an acquire does, an extend or a renew does not (it
 * keeps a lease someone took). A model that throws here is left to the dry run to report: yes.
 */
function takesFromFresh(spec: PatternSpec, model: Model<unknown, Input, unknown>, op: string): boolean {
  try {
    const inputs = sampleInputs(spec, op, 'c0a0');
    return inputs.some((input) => {
      const { state } = model.step(model.init(), input, 1);
      return (model.leaseTags?.(state) ?? []).length > 0;
    });
  } catch {
    return true;
  }
}

function classifier(spec: PatternSpec): Classifier<unknown, Input, unknown> {
  if (spec.classify) return spec.classify;
  const invariants = Object.entries(spec.invariants ?? {});
  return (ctx) => {
    for (const [name, inv] of invariants) {
      if (!inv.witnesses.includes(ctx.op.input.op)) continue;
      const stuck = {
        key: ctx.key,
        state: ctx.state,
        input: ctx.op.input,
        observed: ctx.op.output,
        expected: ctx.expected,
        phrase: opPhrase(ctx.model, ctx.op),
      };
      const message = inv.broken?.(stuck);
      if (typeof message === 'string' && message !== '') return { invariant: name, message };
    }
    return undefined;
  };
}

function operationsOf(spec: PatternSpec): Record<string, Operation> {
  return Object.fromEntries(
    Object.entries(spec.operations).map(([op, o]) => [
      op,
      {
        args: Object.fromEntries(Object.entries(o.args).map(([name, a]) => [name, a.type])) as Record<string, ArgType>,
        method: o.method ?? op,
        answer: o.answer ?? 'as the model prescribes',
      },
    ]),
  );
}

/** The spec as a pattern, checked first (a PatternError names the member at fault). */
export function compilePattern(given: unknown, source?: PatternSource): AnyPattern {
  const spec = validatePatternSpec(given);
  const leases = Object.values(spec.operations).some((op) => Object.values(op.args).some((a) => a.kind === 'lease'));
  const levels = spec.levels ?? {};
  const invariants = [...Object.keys(spec.invariants ?? {}), 'model-conformance'];
  const calls: ScriptCalls = Object.fromEntries(
    Object.entries(spec.operations).map(([op, o]) => [op, { script: o.script ?? op, args: Object.keys(o.args) }]),
  );
  const redisKey = (namespace: string, logicalKey: string): string =>
    spec.key ? spec.key(namespace, logicalKey) : `${spec.name}:{${namespace}:${logicalKey}}`;
  const model = compileModel(spec);
  return {
    name: spec.name,
    ...(spec.description ? { description: spec.description } : {}),
    ...(source ? { source } : {}),
    ...(referenceDirOf(spec, source) ? { referenceDir: referenceDirOf(spec, source) } : {}),
    operations: operationsOf(spec),
    model: withLevels(model, levels),
    levels,
    settings: { ...(leases ? leaseSettings : {}), ...(spec.settings ?? {}) },
    session: spec.session ?? defaultSession(spec.operations, longestLease(spec)),
    races: spec.races ?? derivedRaces(spec.operations, (op) => takesFromFresh(spec, model, op)),
    invariants,
    witnesses: Object.fromEntries(Object.entries(spec.invariants ?? {}).map(([name, inv]) => [name, inv.witnesses])),
    classify: classifier(spec),
    classifyPriority: spec.classifyPriority ?? Object.keys(spec.invariants ?? {}),
    noTtl: spec.noTtl ?? { invariant: 'model-conformance', consequence: 'holds its state forever' },
    transitions: spec.coverage?.transitions ?? [],
    requiredTransitions: spec.coverage?.required ?? [],
    scripts: [...new Set([...Object.values(calls).map((c) => c.script), ...(spec.reference?.scripts ?? [])])],
    redisKey,
    ...(spec.variants ? { variants: spec.variants } : {}),
    ...(spec.duplicates ? { duplicates: spec.duplicates } : {}),
    ...(spec.holder ? { holder: spec.holder } : {}),
    ...(spec.givesBack ? { givesBack: spec.givesBack } : {}),
    ...(spec.clockRefusal ? { clockRefusal: spec.clockRefusal } : {}),
    ...(spec.reference?.variants ? { referenceVariants: spec.reference.variants } : {}),
    ...(spec.masters ? { openOnMasters: spec.masters } : {}),
    openReference:
      spec.reference?.open ??
      ((redis, { scriptsDir, mode, namespace, quitOnClose }) =>
        ScriptedSubject.open(redis, {
          pattern: spec.name,
          calls,
          scriptsDir,
          mode,
          keyOf: (key) => redisKey(namespace, key),
          quitOnClose,
        })),
  };
}
