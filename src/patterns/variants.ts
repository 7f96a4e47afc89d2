/**
 * Semantic variants (types.ts `SemanticVariant`): parsing an implementation's declared choices,
 * and stamping a choice other than the default onto the inputs that carry it, so that the history
 * records the semantics each operation was judged by. Pure: reads the pattern object, never a
 * pattern's name.
 */
import type { Capabilities } from '../subject/capability-types.ts';
import type { AnyPattern } from './types.ts';

/** A declaration naming a variant or a choice the pattern does not have (the opener makes it a usage error). */
export class VariantError extends Error {
  override readonly name = 'VariantError';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `reacquire (renews | counts)`, for the messages that list what a pattern offers. */
const offered = (pattern: AnyPattern): string =>
  Object.entries(pattern.variants ?? {})
    .map(([name, v]) => `${name} (${v.choices.join(' | ')})`)
    .join(', ');

/**
 * `variants: { <name>: '<choice>' }` from a capabilities declaration, checked against the pattern:
 * an unknown variant or choice is one line naming it and what the pattern offers.
 */
export function parseVariants(pattern: AnyPattern, declared: unknown, where: string): Record<string, string> {
  if (!isRecord(declared))
    throw new VariantError(
      `${where}: expected an object of variant -> choice, got ${JSON.stringify(declared) ?? String(declared)}`,
    );
  const variants = pattern.variants ?? {};
  const chosen: Record<string, string> = {};
  for (const [name, choice] of Object.entries(declared)) {
    if (!Object.hasOwn(variants, name)) {
      const known = offered(pattern);
      throw new VariantError(
        `${where}: unknown variant ${JSON.stringify(name)} (${known ? `a ${pattern.name} implementation may declare ${known}` : `${pattern.name} has no semantic variants`})`,
      );
    }
    const { choices } = variants[name];
    if (typeof choice !== 'string' || !choices.includes(choice)) {
      throw new VariantError(
        `${where}.${name}: unknown choice ${JSON.stringify(choice) ?? String(choice)} (${name} is one of ${choices.join(', ')}; default ${choices[0]})`,
      );
    }
    chosen[name] = choice;
  }
  // In the pattern's order, whatever the declaration's: certificates list them that way.
  return Object.fromEntries(
    Object.keys(variants)
      .filter((n) => Object.hasOwn(chosen, n))
      .map((n) => [n, chosen[n]]),
  );
}

/**
 * The input as the history records it for an implementation with these capabilities: with a field
 * per variant the operation carries whose declared choice is not the default. Without one, the
 * same object: an implementation declaring no variant (or its default) records what it always did.
 */
export function withVariants<I>(pattern: AnyPattern, caps: Capabilities | undefined, input: I): I {
  const declared = caps?.variants;
  if (!declared || !pattern.variants) return input;
  const op = (input as { op?: unknown }).op;
  const fields = Object.entries(pattern.variants).filter(
    ([name, v]) =>
      typeof op === 'string' &&
      v.carriedBy.includes(op) &&
      Object.hasOwn(declared, name) &&
      declared[name] !== v.choices[0],
  );
  if (fields.length === 0) return input;
  return { ...input, ...Object.fromEntries(fields.map(([name]) => [name, declared[name]])) };
}

/** The declared variants (a default declared explicitly included), as certificates and result.json show them. */
export function variantsJson(caps: Capabilities): Record<string, string> {
  return { ...(caps.variants ?? {}) };
}

/** One line for a summary: `reacquire counts (a live holder that acquires again is counted ...)`. */
export function variantsText(pattern: AnyPattern, caps: Capabilities): string {
  return Object.entries(caps.variants ?? {})
    .map(([name, choice]) => `${name} ${choice} (${pattern.variants?.[name]?.meaning[choice] ?? 'no description'})`)
    .join(', ');
}
