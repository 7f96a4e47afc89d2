/**
 * The faults' own settings (`--set clock-skew=20`), given with the pattern's through the one --set
 * flag: a name a fault declares is that fault's, checked here once against its limits and against
 * the fault set (a setting of a fault the job leaves out would change nothing, which would mislead);
 * every other name is left to the pattern's settings (./settings.ts).
 */
import { FAULT_DESCRIPTORS, type FaultName } from '../faults/index.ts';
import type { Settings } from '../plan/settings.ts';
import { SettingError } from './settings.ts';

/** What a --set list holds: the pattern's settings as given, and the faults' filled. */
export interface SplitSettings {
  readonly pattern: Settings;
  /** Every setting of every fault in the set, the value given or its default; empty when none declares any. */
  readonly faults: Settings;
}

/** Split `given` into the pattern's and the faults'; a SettingError for the first fault setting that is wrong. */
export function splitFaultSettings(faults: readonly FaultName[], given: Settings = {}): SplitSettings {
  const owners = new Map(
    FAULT_DESCRIPTORS.flatMap((f) =>
      Object.entries(f.settings ?? {}).map(([name, s]) => [name, { fault: f.name, setting: s }] as const),
    ),
  );
  const pattern: Record<string, number> = {};
  for (const [name, value] of Object.entries(given)) {
    const owner = owners.get(name);
    if (!owner) {
      pattern[name] = value;
      continue;
    }
    if (!faults.includes(owner.fault))
      throw new SettingError(
        name,
        `${name} is a setting of the fault ${owner.fault}, which the fault list leaves out`,
        value,
      );
    const { min, max } = owner.setting;
    if (!Number.isInteger(value) || value < min || value > max)
      throw new SettingError(name, `${name} must be an integer in [${min}, ${max}]`, value);
  }
  const filled = FAULT_DESCRIPTORS.filter((f) => faults.includes(f.name)).flatMap((f) =>
    Object.entries(f.settings ?? {}).map(
      ([name, s]) => [name, Object.hasOwn(given, name) ? given[name] : s.default] as const,
    ),
  );
  return { pattern, faults: Object.fromEntries(filled) };
}
