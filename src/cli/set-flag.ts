import { UsageError } from './exit-codes.ts';

/** `--set NAME=VALUE` (repeatable), parsed: the settings by name, and the text each was given as (to quote it back). */
export interface SetFlags {
  readonly settings: Record<string, number>;
  readonly texts: Readonly<Record<string, string>>;
}

/**
 * The --set flags' NAME=VALUE pairs. Only their shape is checked here (a name, an `=`, each name
 * once); the names and the limits are the pattern's, checked with the other job options
 * (src/certify/options.ts). A value that is not digits is NaN, which the limits refuse.
 */
export function setFlags(command: string, values: readonly string[] | undefined): SetFlags | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const settings: Record<string, number> = {};
  const texts: Record<string, string> = {};
  for (const pair of values) {
    const match = /^([A-Za-z][\w-]*)=(.*)$/.exec(pair);
    if (!match) throw new UsageError(`${command}: --set must be NAME=VALUE (e.g. --set window=3), got '${pair}'`);
    const [, name, text] = match;
    if (Object.hasOwn(texts, name))
      throw new UsageError(`${command}: --set ${name} given twice ('${name}=${texts[name]}', '${pair}')`);
    texts[name] = text;
    settings[name] = /^\d+$/.test(text) ? Number(text) : NaN;
  }
  return { settings, texts };
}
