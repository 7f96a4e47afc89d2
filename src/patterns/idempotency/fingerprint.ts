import { createHash } from 'node:crypto';

/** What a request may contain to be fingerprinted: JSON values, nothing that serialises ambiguously. */
export type CanonicalValue =
  | null
  | boolean
  | number
  | string
  | readonly CanonicalValue[]
  | { readonly [key: string]: CanonicalValue | undefined };

/**
 * Canonical JSON: object keys sorted (by UTF-16 code units), no whitespace, properties whose value is
 * undefined omitted (as JSON.stringify does), -0 written as 0. Values JSON cannot carry faithfully
 * (NaN, Infinity, bigint, functions, symbols, undefined in arrays, class instances) are refused,
 * because silently dropping them would let two different requests share a fingerprint.
 */
export function canonicalJson(value: unknown): string {
  return write(value, '$');
}

function write(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value))
        throw new TypeError(`canonicalJson: ${path} is ${value}, which JSON cannot represent`);
      return JSON.stringify(value);
    case 'object':
      if (Array.isArray(value)) return `[${value.map((v, i) => writeElement(v, `${path}[${i}]`)).join(',')}]`;
      if (!isPlainObject(value))
        throw new TypeError(
          `canonicalJson: ${path} is a ${value.constructor?.name ?? 'non-plain object'}; pass plain objects and arrays only`,
        );
      return writeObject(value as Record<string, unknown>, path);
    default:
      throw new TypeError(`canonicalJson: ${path} is a ${typeof value}, which JSON cannot represent`);
  }
}

function writeElement(value: unknown, path: string): string {
  if (value === undefined) throw new TypeError(`canonicalJson: ${path} is undefined (JSON would turn it into null)`);
  return write(value, path);
}

function writeObject(value: Record<string, unknown>, path: string): string {
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${write(value[k], `${path}.${k}`)}`).join(',')}}`;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** SHA-256 hex (64 characters) of the canonical JSON of the request. */
export function fingerprint(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request), 'utf8').digest('hex');
}
