/**
 * A job's pattern settings as plain data (`--set NAME=VALUE`): what the certificate, the shard plan
 * and the report record and print. Filling and checking them against a pattern's declaration is
 * the generator's (src/generator/settings.ts): what they set is what the sessions draw.
 */

/** Settings by name: given (some) or filled (every one the pattern declares). */
export type Settings = Readonly<Record<string, number>>;

/** `limit=3 window=1`, as --set takes them and in the order given ('' for none). */
export const describeSettings = (settings: Settings): string =>
  Object.entries(settings)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');

/** `--set limit=3 --set window=1`: the flags that ask for them again. */
export const settingsFlags = (settings: Settings): string[] =>
  Object.entries(settings).flatMap(([name, value]) => ['--set', `${name}=${value}`]);
