/**
 * A pattern's settings (types.ts `PatternSetting`) as a job fills them: every one the pattern
 * declares, the value given or its default, in the order the pattern declares them. Checked here
 * once for every caller (the job options, the generator's own constraints), each problem one line:
 * a name the pattern does not have names the pattern and the settings it has; a value out of its
 * limits names the setting and the limits.
 */
import type { AnyPattern } from './types.ts';

/** Settings by name: given (some) or filled (every one the pattern declares). */
export type Settings = Readonly<Record<string, number>>;

export class SettingError extends RangeError {
  override readonly name = 'SettingError';
  constructor(
    /** The name as given. */
    readonly setting: string,
    /** What is wrong, naming the setting (or the pattern), without the value. */
    readonly problem: string,
    readonly got: unknown,
  ) {
    super(`${problem}, got ${JSON.stringify(got)}`);
  }
}

/** The pattern's settings, every one filled; a SettingError for the first one given that is wrong. */
export function fillSettings(pattern: AnyPattern, given: Settings = {}): Settings {
  const declared = pattern.settings ?? {};
  for (const [name, value] of Object.entries(given)) {
    const setting = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (setting === undefined) throw new SettingError(name, `${pattern.name} has no setting '${name}' (${settingNames(pattern)})`, value);
    if (!Number.isInteger(value) || value < setting.min || value > setting.max) throw new SettingError(name, `${name} must be an integer in [${setting.min}, ${setting.max}]`, value);
  }
  return Object.fromEntries(Object.entries(declared).map(([name, s]) => [name, Object.hasOwn(given, name) ? given[name] : s.default]));
}

/** `its settings: limit, window` or `it has none`. */
function settingNames(pattern: AnyPattern): string {
  const names = Object.keys(pattern.settings ?? {});
  return names.length ? `its settings: ${names.join(', ')}` : 'it has none';
}

/** `limit=3 window=1`, as --set takes them and in the order given ('' for none). */
export const describeSettings = (settings: Settings): string => Object.entries(settings).map(([name, value]) => `${name}=${value}`).join(' ');

/** `--set limit=3 --set window=1`: the flags that ask for them again. */
export const settingsFlags = (settings: Settings): string[] => Object.entries(settings).flatMap(([name, value]) => ['--set', `${name}=${value}`]);

/** One filled setting, for a session: a name the pattern does not declare is a programming error. */
export function setting(settings: Settings, name: string): number {
  const value = settings[name];
  if (value === undefined) throw new Error(`setting '${name}' was not filled (fillSettings fills every declared setting)`);
  return value;
}
