/**
 * An implementation's own Redis keys. The harness hands every operation a ready key; a library that
 * stores its state under another name (`mutex:<key>`, `node-idempotency:POST:/route:<key>`) may say
 * how, so that the post-run probes read the keys it really wrote and faults aim at their slot,
 * instead of the probes guessing from the names they find.
 */
export interface KeyMapping {
  /** In words, for reports: `prefix "mutex:"`, `a function`. */
  readonly description: string;
  /** The Redis key(s) the implementation keeps a handed key's state under, first the main one. */
  map(handedKey: string): readonly string[];
}

/** Bad key mapping: the opener turns it into a one-line usage error. */
export class KeyMappingError extends Error {
  override readonly name = 'KeyMappingError';
}

/**
 * A declared mapping, checked: `{ prefix: string }` (or `{ prefix, suffix }`) or a function from
 * the handed key to one key or a list of keys (the function also receives the pattern's name).
 * `where` names the declaration in errors.
 */
export function parseKeyMapping(declared: unknown, where: string, pattern: string): KeyMapping {
  if (typeof declared === 'function') {
    const fn = declared as (key: string, pattern: string) => unknown;
    return { description: 'a function', map: (key) => mappedKeys(fn(key, pattern), key, where) };
  }
  if (typeof declared !== 'object' || declared === null || Array.isArray(declared)) {
    throw new KeyMappingError(`${where}: expected { prefix } or a function of the key, got ${JSON.stringify(declared) ?? String(declared)}`);
  }
  const { prefix = '', suffix = '', ...extra } = declared as Record<string, unknown>;
  if (Object.keys(extra).length) throw new KeyMappingError(`${where}: unknown field${Object.keys(extra).length > 1 ? 's' : ''} ${Object.keys(extra).join(', ')} (known: prefix, suffix)`);
  if (typeof prefix !== 'string' || typeof suffix !== 'string') throw new KeyMappingError(`${where}: prefix and suffix must be strings, got ${JSON.stringify(declared)}`);
  if (prefix === '' && suffix === '') throw new KeyMappingError(`${where}: a mapping needs a non-empty prefix or suffix`);
  const parts = [prefix && `prefix ${JSON.stringify(prefix)}`, suffix && `suffix ${JSON.stringify(suffix)}`].filter(Boolean);
  return { description: parts.join(' and '), map: (key) => [`${prefix}${key}${suffix}`] };
}

/**
 * What a mapping function returned, checked. Every key must contain the handed key: it carries the
 * run's namespace (so an external cluster's cleanup finds it) and its hash tag (so every key of one
 * logical key lives in one slot).
 */
function mappedKeys(result: unknown, key: string, where: string): string[] {
  const keys = typeof result === 'string' ? [result] : result;
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'string')) {
    throw new KeyMappingError(`${where}: the mapping of ${key} must be a key or a non-empty list of keys, got ${JSON.stringify(result)}`);
  }
  const foreign = keys.find((k) => !k.includes(key));
  if (foreign !== undefined) throw new KeyMappingError(`${where}: the mapping of ${key} gave ${foreign}, which does not contain the key handed over (the run's namespace and hash tag live in it)`);
  return keys;
}
