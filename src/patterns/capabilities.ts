/**
 * Capabilities: which operations of a pattern an implementation supports, the level at which it
 * answers each, and which of them hand back an opaque holder handle. Declared by a module
 * (`export const capabilities`) or in a process program's hello (chaoslua-process/1.1); an
 * implementation that declares nothing supports every operation exactly, as before.
 *
 * From the capabilities follow what the generator may draw, how each answer is judged, which
 * invariants the job can witness at all (the others are `not-applicable`, never passed), and which
 * evidence a certificate can ask for. Pure: reads the pattern object, never a pattern's name.
 */
import { EXACT, levelNames } from './levels.ts';
import type { Capabilities, OperationCapability } from '../subject/capability-types.ts';
import type { AnyPattern, RequiredTransition } from './types.ts';
import { parseVariants, VariantError } from './variants.ts';

export type { Capabilities, OperationCapability } from '../subject/capability-types.ts';

/** What an implementation that declares nothing gets: every operation, exact, no handles. */
export function exactCapabilities(pattern: AnyPattern): Capabilities {
  return {
    operations: Object.fromEntries(Object.keys(pattern.operations).map((op) => [op, { level: EXACT, handle: false }])),
    declared: false,
  };
}

/** Bad capabilities: the opener turns it into a one-line usage error naming where it came from. */
export class CapabilitiesError extends Error {
  override readonly name = 'CapabilitiesError';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The key of a capabilities declaration that holds semantic variants, not an operation (./variants.ts). */
export const VARIANTS_KEY = 'variants';

/**
 * Declared capabilities, checked: `{ <op>: '<level>' | { level: '<level>', handle?: boolean } }`,
 * the supported operations only, and `variants: { <variant>: '<choice>' }` when the implementation
 * chooses one of the pattern's semantic variants. `where` names the declaration in errors
 * ("module:x.ts capabilities.lock").
 */
export function parseCapabilities(pattern: AnyPattern, declared: unknown, where: string): Capabilities {
  if (!isRecord(declared))
    throw new CapabilitiesError(
      `${where}: expected an object of operation -> level, got ${JSON.stringify(declared) ?? String(declared)}`,
    );
  const known = Object.keys(pattern.operations);
  const unknown = Object.keys(declared).filter((op) => !known.includes(op) && op !== VARIANTS_KEY);
  if (unknown.length)
    throw new CapabilitiesError(
      `${where}: unknown operation${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (a ${pattern.name} implementation has ${known.join(', ')})`,
    );
  const operations: Record<string, OperationCapability> = {};
  // In the pattern's order, whatever the declaration's: reports and tallies list them that way.
  for (const op of known.filter((o) => Object.hasOwn(declared, o))) {
    const entry = declared[op];
    const spec = typeof entry === 'string' ? { level: entry } : entry;
    if (!isRecord(spec) || typeof spec.level !== 'string')
      throw new CapabilitiesError(
        `${where}.${op}: expected a level name or { level, handle }, got ${JSON.stringify(entry)}`,
      );
    const extra = Object.keys(spec).filter((k) => k !== 'level' && k !== 'handle' && k !== 'givesBack');
    if (extra.length)
      throw new CapabilitiesError(
        `${where}.${op}: unknown field${extra.length > 1 ? 's' : ''} ${extra.join(', ')} (known: level, handle, givesBack)`,
      );
    const levels = levelNames(pattern.levels, op);
    if (!levels.includes(spec.level))
      throw new CapabilitiesError(
        `${where}.${op}: unknown level ${JSON.stringify(spec.level)} (${op} answers at ${levels.join(', ')})`,
      );
    if (spec.handle !== undefined && typeof spec.handle !== 'boolean')
      throw new CapabilitiesError(`${where}.${op}.handle: expected true or false, got ${JSON.stringify(spec.handle)}`);
    if (spec.handle === true && !(pattern.holder?.handedOutBy ?? []).includes(op)) {
      const by = pattern.holder?.handedOutBy ?? [];
      throw new CapabilitiesError(
        `${where}.${op}.handle: ${op} cannot hand out a holder handle (${by.length ? `only ${by.join(', ')} can` : `no ${pattern.name} operation can`})`,
      );
    }
    if (spec.givesBack !== undefined && typeof spec.givesBack !== 'boolean')
      throw new CapabilitiesError(
        `${where}.${op}.givesBack: expected true or false, got ${JSON.stringify(spec.givesBack)}`,
      );
    if (spec.givesBack === true && !Object.hasOwn(pattern.givesBack ?? {}, op)) {
      const can = Object.keys(pattern.givesBack ?? {});
      throw new CapabilitiesError(
        `${where}.${op}.givesBack: ${op} cannot give back inside its call (${can.length ? `only ${can.join(', ')} can` : `no ${pattern.name} operation can`})`,
      );
    }
    operations[op] = {
      level: spec.level,
      handle: spec.handle === true,
      ...(spec.givesBack === true ? { givesBack: true } : {}),
    };
  }
  if (Object.keys(operations).length === 0)
    throw new CapabilitiesError(
      `${where}: supports no operation (a ${pattern.name} implementation has ${known.join(', ')})`,
    );
  if (!Object.hasOwn(declared, VARIANTS_KEY)) return { operations, declared: true };
  try {
    const variants = parseVariants(pattern, declared[VARIANTS_KEY], `${where}.${VARIANTS_KEY}`);
    return { operations, declared: true, ...(Object.keys(variants).length ? { variants } : {}) };
  } catch (error) {
    if (error instanceof VariantError) throw new CapabilitiesError(error.message);
    throw error;
  }
}

export const supportedOperations = (caps: Capabilities): string[] => Object.keys(caps.operations);

/** The invariants an operation's answers witness at the exact level (model-conformance: every operation). */
export function exactWitnesses(pattern: AnyPattern, op: string): string[] {
  return pattern.invariants.filter(
    (inv) => !Object.hasOwn(pattern.witnesses, inv) || pattern.witnesses[inv].includes(op),
  );
}

/** The invariants an operation witnesses at a level: all it witnesses exactly, or what the coarse level keeps of them. */
export function witnessesAt(pattern: AnyPattern, op: string, level: string): string[] {
  const exact = exactWitnesses(pattern, op);
  if (level === EXACT) return exact;
  const coarse = pattern.levels[op]?.find((l) => l.name === level);
  return exact.filter((inv) => coarse?.witnesses.includes(inv));
}

export interface Applicability {
  readonly invariant: string;
  /** Undefined when some supported operation witnesses it at its level; else why not, in words. */
  readonly notApplicable?: string;
}

/**
 * Which invariants the declared operations and levels can witness. One that none can is
 * `not-applicable`: nothing the job sees could ever show it broken, so it is never reported passed.
 */
export function applicability(pattern: AnyPattern, caps: Capabilities): Applicability[] {
  return pattern.invariants.map((invariant) => {
    const by = Object.entries(caps.operations).filter(([op, c]) =>
      witnessesAt(pattern, op, c.level).includes(invariant),
    );
    if (by.length) return { invariant };
    const could = Object.keys(pattern.operations).filter((op) => exactWitnesses(pattern, op).includes(invariant));
    const declared = could.map((op) =>
      Object.hasOwn(caps.operations, op) ? `${op} at level ${caps.operations[op].level}` : `${op} not supported`,
    );
    return {
      invariant,
      notApplicable: `not-applicable: only ${could.join(', ')} can witness it, and the implementation declares ${declared.join(', ')}`,
    };
  });
}

/** The required transitions the supported operations can reach (each transition's `needs`: all supported). */
export function reachableTransitions(
  transitions: readonly RequiredTransition[],
  caps: Capabilities,
): RequiredTransition[] {
  return transitions.filter((t) => (t.needs ?? []).every((op) => Object.hasOwn(caps.operations, op)));
}

/** capabilities as certificate.json and result.json show them: operation -> level, `+handle` when it hands one out. */
export function capabilitiesJson(caps: Capabilities): Record<string, string> {
  return Object.fromEntries(
    Object.entries(caps.operations).map(([op, c]) => [
      op,
      `${c.level}${c.handle ? '+handle' : ''}${c.givesBack ? '+gives-back' : ''}`,
    ]),
  );
}

/** One line for a summary: `acquire boolean, release boolean, extend not supported`. */
export function capabilitiesText(pattern: AnyPattern, caps: Capabilities): string {
  return Object.keys(pattern.operations)
    .map((op) =>
      Object.hasOwn(caps.operations, op)
        ? `${op} ${caps.operations[op].level}${caps.operations[op].handle ? ' (hands out a handle)' : ''}${caps.operations[op].givesBack ? ' (may give back inside the call)' : ''}`
        : `${op} not supported`,
    )
    .join(', ');
}
