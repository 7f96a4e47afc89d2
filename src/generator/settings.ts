/**
 * A pattern's settings as a job fills them: every one the pattern declares, the value given or its
 * default, in the order the pattern declares them. Checked here once for every caller (the job
 * options, the generator's own constraints), each problem one line: a name the pattern does not
 * have names the pattern and the settings it has; a value out of its limits names the setting and
 * the limits. A setting changes what the sessions draw, never how the model judges.
 */
import type { Settings } from '../plan/settings.ts';

export type { Settings } from '../plan/settings.ts';

/**
 * A number a job may set for the pattern's sessions (`--set NAME=VALUE`): an integer within its
 * limits, the default when not set. Whatever it sets reaches the history inside the operations' own
 * arguments.
 */
export interface SessionSetting {
  /** What it sets, with its unit, as --help and the README list it. */
  readonly description: string;
  readonly min: number;
  readonly max: number;
  /** What the sessions drew before the setting existed: pinned seeds draw the same schedules with it. */
  readonly default: number;
}

/** What the settings are filled against: the pattern's name (for messages) and its declaration. */
export interface SettingsDeclaration {
  readonly name: string;
  readonly settings?: Readonly<Record<string, SessionSetting>>;
}

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
export function fillSettings(pattern: SettingsDeclaration, given: Settings = {}): Settings {
  const declared = pattern.settings ?? {};
  for (const [name, value] of Object.entries(given)) {
    const setting = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (setting === undefined)
      throw new SettingError(name, `${pattern.name} has no setting '${name}' (${settingNames(pattern)})`, value);
    if (!Number.isInteger(value) || value < setting.min || value > setting.max)
      throw new SettingError(name, `${name} must be an integer in [${setting.min}, ${setting.max}]`, value);
  }
  return Object.fromEntries(
    Object.entries(declared).map(([name, s]) => [name, Object.hasOwn(given, name) ? given[name] : s.default]),
  );
}

/** `its settings: limit, window` or `it has none`. */
function settingNames(pattern: SettingsDeclaration): string {
  const names = Object.keys(pattern.settings ?? {});
  return names.length ? `its settings: ${names.join(', ')}` : 'it has none';
}

/** One filled setting, for a session: a name the pattern does not declare is a programming error. */
export function setting(settings: Settings, name: string): number {
  const value = settings[name];
  if (value === undefined)
    throw new Error(`setting '${name}' was not filled (fillSettings fills every declared setting)`);
  return value;
}
