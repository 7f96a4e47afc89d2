/** Option checks shared by the clients: each message names the option and the function it was given to. */

export function positiveInt(where: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${where}: ${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

export function nonEmptyString(where: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new TypeError(`${where}: ${name} must be a non-empty string, got ${String(value)}`);
  return value;
}

export function oneOf<T extends string>(where: string, name: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T))
    throw new RangeError(
      `${where}: ${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${String(value)}`,
    );
  return value as T;
}

/** Refuse misspelt options instead of silently ignoring them. */
export function knownKeys(where: string, options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new RangeError(`${where}: unknown option '${key}' (known: ${known.join(', ')})`);
  }
}
