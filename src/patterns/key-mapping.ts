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
  /**
   * Present for a mapping only the implementation can compute (a process program's `{ computed:
   * true }`): `map` answers from what `learn` was told, and the handed key until then. The subject
   * asks the program once per key, before its first call there.
   */
  learn?(handedKey: string, names: unknown): void;
  /** With `learn`: has this key's mapping been asked for yet? */
  knows?(handedKey: string): boolean;
}

/** The placeholder a key template names the handed key by: `lock-signal:{key}`. */
export const KEY_PLACEHOLDER = '{key}';

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
  if (Array.isArray(declared)) return templates(declared, where);
  if (typeof declared !== 'object' || declared === null) {
    throw new KeyMappingError(
      `${where}: expected { prefix }, a list of key templates or a function of the key, got ${JSON.stringify(declared) ?? String(declared)}`,
    );
  }
  if ((declared as Record<string, unknown>).computed !== undefined)
    return computed(declared as Record<string, unknown>, where);
  const { prefix = '', suffix = '', ...extra } = declared as Record<string, unknown>;
  if (Object.keys(extra).length)
    throw new KeyMappingError(
      `${where}: unknown field${Object.keys(extra).length > 1 ? 's' : ''} ${Object.keys(extra).join(', ')} (known: prefix, suffix; or computed)`,
    );
  if (typeof prefix !== 'string' || typeof suffix !== 'string')
    throw new KeyMappingError(`${where}: prefix and suffix must be strings, got ${JSON.stringify(declared)}`);
  if (prefix === '' && suffix === '')
    throw new KeyMappingError(`${where}: a mapping needs a non-empty prefix or suffix`);
  const parts = [prefix && `prefix ${JSON.stringify(prefix)}`, suffix && `suffix ${JSON.stringify(suffix)}`].filter(
    Boolean,
  );
  return { description: parts.join(' and '), map: (key) => [`${prefix}${key}${suffix}`] };
}

/**
 * `["lock:{key}", "lock-signal:{key}"]`: every key the implementation keeps, main one first, each
 * naming the handed key once as `{key}` (a second key a library keeps beside its main one: its
 * `<key>:lock`, its `lock-signal:<key>`). Says in JSON what a module's function says.
 */
function templates(list: readonly unknown[], where: string): KeyMapping {
  if (list.length === 0) throw new KeyMappingError(`${where}: a list of key templates needs at least one`);
  for (const t of list) {
    if (typeof t !== 'string' || t.split(KEY_PLACEHOLDER).length !== 2) {
      throw new KeyMappingError(
        `${where}: each key template must be a string naming the key once as ${KEY_PLACEHOLDER}, got ${JSON.stringify(t)}`,
      );
    }
  }
  const names = list as string[];
  return {
    description: `keys ${names.map((n) => JSON.stringify(n)).join(', ')}`,
    map: (key) => names.map((t) => t.replace(KEY_PLACEHOLDER, () => key)),
  };
}

/**
 * `{ computed: true }`: names only the implementation can compute (a hash of the key, a name its
 * library builds). The process session asks the program for each key's names (a request with op
 * `keys`) before its first call there; the answer is checked as a module function's is.
 */
function computed(declared: Record<string, unknown>, where: string): KeyMapping {
  const extra = Object.keys(declared).filter((k) => k !== 'computed');
  if (extra.length || declared.computed !== true)
    throw new KeyMappingError(`${where}: expected { computed: true } alone, got ${JSON.stringify(declared)}`);
  const known = new Map<string, readonly string[]>();
  return {
    description: 'computed by the implementation',
    map: (key) => known.get(key) ?? [key],
    learn: (key, names) => void known.set(key, mappedKeys(names, key, where)),
    knows: (key) => known.has(key),
  };
}

/**
 * What a mapping function returned, checked. Every key must contain the handed key: it carries the
 * run's namespace (so an external cluster's cleanup finds it) and its hash tag (so every key of one
 * logical key lives in one slot).
 */
function mappedKeys(result: unknown, key: string, where: string): string[] {
  const keys = typeof result === 'string' ? [result] : result;
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'string')) {
    throw new KeyMappingError(
      `${where}: the mapping of ${key} must be a key or a non-empty list of keys, got ${JSON.stringify(result)}`,
    );
  }
  const foreign = keys.find((k) => !k.includes(key));
  if (foreign !== undefined)
    throw new KeyMappingError(
      `${where}: the mapping of ${key} gave ${foreign}, which does not contain the key handed over (the run's namespace and hash tag live in it)`,
    );
  return keys;
}
