import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './exit-codes.ts';

type Options = NonNullable<ParseArgsConfig['options']>;
type FlagValue<O> = O extends { type: 'boolean' }
  ? O extends { multiple: true }
    ? boolean[]
    : boolean
  : O extends { multiple: true }
    ? string[]
    : string;
/** What parse gives: each flag's value when given, and the positionals. */
export interface Parsed<T extends Options> {
  readonly values: { [K in keyof T]?: FlagValue<T[K]> };
  readonly positionals: string[];
}

/**
 * node:util parseArgs, strict, with its errors turned into one-line UsageErrors naming the flag. A
 * flag that takes one value given twice is refused (parseArgs would keep the last one silently);
 * `multiple` flags (--set) repeat, and a boolean given twice is still one switch.
 */
export function parse<T extends Options>(
  command: string,
  argv: string[],
  options: T,
  allowPositionals = false,
): Parsed<T> {
  let parsed;
  try {
    parsed = parseArgs({
      args: attachNegativeValues(argv, options),
      options,
      strict: true,
      allowPositionals,
      tokens: true,
    });
  } catch (error) {
    const message = (error as Error).message.split('\n')[0].replace(/\. To specify a positional.*$/, '');
    throw new UsageError(`${command}: ${message}`);
  }
  const given = new Map<string, string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || token.value === undefined || options[token.name]?.multiple) continue;
    const text = `${token.rawName} ${token.value}`;
    const first = given.get(token.name);
    if (first !== undefined)
      throw new UsageError(`${command}: --${token.name} given twice ('${first}', '${text}'); it takes one value`);
    given.set(token.name, text);
  }
  return { values: parsed.values as Parsed<T>['values'], positionals: parsed.positionals };
}

/**
 * `--runs -1`: parseArgs takes `-1` for a flag and answers "argument is ambiguous". A value that is a
 * negative number is attached (`--runs=-1`) so that the flag's own check names what is wrong with it.
 */
function attachNegativeValues(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = /^--([^=]+)$/.exec(argv[i])?.[1];
    const next = argv[i + 1];
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${argv[i]}=${next}`);
      i++;
    } else out.push(argv[i]);
  }
  return out;
}

/** A non-negative integer flag, or a UsageError naming it. */
export function intFlag(
  command: string,
  name: string,
  value: string | undefined,
  fallback: number,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${command}: --${name} must be an integer in [${min}, ${max}], got '${value}'`);
  return n;
}

/** "60s", "2m", "1500ms" or plain seconds -> milliseconds. */
export function durationFlag(command: string, name: string, value: string | undefined, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m) throw new UsageError(`${command}: --${name} must be a duration like 60s, 2m or 1500ms, got '${value}'`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(m[1]) * unit);
}
