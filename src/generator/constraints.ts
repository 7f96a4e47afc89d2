import { fillSettings, SettingError } from './settings.ts';
import { splitFaultSettings } from './fault-settings.ts';
import type { SessionSource } from './source.ts';
import {
  CLOCK_FAULT_NAMES,
  FAULT_DESCRIPTORS,
  FAULT_NAMES,
  PARTITION_FAULT_NAMES,
  isFaultName,
  type FaultName,
} from '../faults/index.ts';
import { NODE_TIMEOUT_MS } from '../plan/node-timeout.ts';

export { CLOCK_FAULT_NAMES, FAULT_NAMES, PARTITION_FAULT_NAMES, type FaultName };
/** Every fault's name, in registry order (what an unknown name's message lists). */
const KNOWN: readonly string[] = FAULT_DESCRIPTORS.map((f) => f.name);

/** What a caller may set on the schedule generator (fast-check's Constraints pattern). */
export interface ScheduleConstraints {
  /** The pattern whose sessions are drawn (handed in by the caller, who resolved it). */
  pattern: SessionSource;
  /** Logical clients: a fixed count or [min, max]. Default [2, 8]. */
  clients?: number | readonly [number, number];
  /** Logical keys: a fixed count or [min, max]. Default [1, 4]. */
  keys?: number | readonly [number, number];
  /** Most sessions (attempts) per client. Default 3. */
  maxSessionsPerClient?: number;
  /** Faults that may fire. Default: all. */
  faults?: readonly FaultName[];
  /** Most nemesis faults per schedule. Default 3. */
  maxFaults?: number;
  /** Leases the clients ask for, ms. Default [250, 500]. */
  leasesMs?: readonly number[];
  /** cluster-node-timeout of the cluster, to size short and long node freezes. Default NODE_TIMEOUT_MS.default. */
  nodeTimeoutMs?: number;
  /** The operations the implementation supports (its capabilities): the only ones drawn. Default: all the pattern's. */
  operations?: readonly string[];
  /** The pattern's settings (its `settings`, e.g. ratelimit's limit and window). Default: each one's default. */
  settings?: Readonly<Record<string, number>>;
  /** The faults' settings (their descriptors' `settings`, e.g. client-clock's clock-skew). Default: each one's default. */
  faultSettings?: Readonly<Record<string, number>>;
}

export interface ScheduleOptions {
  readonly pattern: SessionSource;
  readonly clients: readonly [number, number];
  readonly keys: readonly [number, number];
  readonly maxSessionsPerClient: number;
  readonly faults: ReadonlySet<FaultName>;
  readonly maxFaults: number;
  readonly leasesMs: readonly number[];
  readonly nodeTimeoutMs: number;
  /** Undefined: every operation of the pattern (sessions drawn exactly as before capabilities existed). */
  readonly operations?: ReadonlySet<string>;
  /** Every setting the pattern declares, filled with its default when not given. */
  readonly settings: Readonly<Record<string, number>>;
  /** Every setting of every fault in the set, filled likewise. */
  readonly faultSettings: Readonly<Record<string, number>>;
}

function range(
  name: string,
  value: number | readonly [number, number] | undefined,
  fallback: [number, number],
  min: number,
  max: number,
): [number, number] {
  const [lo, hi] = value === undefined ? fallback : typeof value === 'number' ? [value, value] : value;
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < min || hi > max || lo > hi) {
    throw new RangeError(
      `scheduleArbitrary: ${name} must be integers within [${min}, ${max}] with min <= max, got ${JSON.stringify(value)}`,
    );
  }
  return [lo, hi];
}

/**
 * Parse a --faults list: comma-separated names, or 'all' / 'none' alone. An empty list (an unset
 * variable in a CI script) is an error, not 'none': it would certify without any fault.
 */
export function parseFaultList(list: string): FaultName[] {
  const names = list.split(',').map((s) => s.trim());
  if (names.every((n) => n === ''))
    throw new RangeError(`the fault list is empty (say 'none' for no faults, 'all' for every fault)`);
  if (names.includes('')) throw new RangeError(`the fault list '${list}' has an empty name`);
  const unknown = names.filter((n) => n !== 'all' && n !== 'none' && n !== 'clocks' && !KNOWN.includes(n));
  if (unknown.length)
    throw new RangeError(
      `unknown fault${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${n}'`).join(', ')} (known: ${KNOWN.join(', ')}, all, clocks, none)`,
    );
  // `all` may be joined only by what it leaves out: `clocks` (the clock faults) and faults named one by one.
  const rest = names.filter((n) => n !== 'clocks' && !(KNOWN.includes(n) && !FAULT_NAMES.includes(n as FaultName)));
  if (rest.length > 1 && (rest.includes('all') || rest.includes('none')))
    throw new RangeError(
      `'all' and 'none' stand alone, not in a list with other names but those all leaves out ('${list}')`,
    );
  if (names.includes('none') && names.length > 1) throw new RangeError(`'none' stands alone ('${list}')`);
  const expanded = names.flatMap((n) =>
    n === 'all' ? FAULT_NAMES : n === 'clocks' ? CLOCK_FAULT_NAMES : n === 'none' ? [] : [n as FaultName],
  );
  return [...new Set(expanded)];
}

export function scheduleOptions(c: ScheduleConstraints): ScheduleOptions {
  const faults = new Set(c.faults ?? FAULT_NAMES);
  for (const f of faults) {
    if (!isFaultName(f)) throw new RangeError(`scheduleArbitrary: unknown fault '${f}'`);
  }
  const leasesMs = c.leasesMs ?? [250, 500];
  if (leasesMs.length === 0 || leasesMs.some((l) => !Number.isInteger(l) || l < 50)) {
    throw new RangeError('scheduleArbitrary: leasesMs must be a non-empty list of integers >= 50');
  }
  const maxSessions = c.maxSessionsPerClient ?? 3;
  if (!Number.isInteger(maxSessions) || maxSessions < 1 || maxSessions > 20)
    throw new RangeError('scheduleArbitrary: maxSessionsPerClient must be an integer in [1, 20]');
  const maxFaults = c.maxFaults ?? 3;
  if (!Number.isInteger(maxFaults) || maxFaults < 0 || maxFaults > 10)
    throw new RangeError('scheduleArbitrary: maxFaults must be an integer in [0, 10]');
  const { pattern } = c;
  const known = Object.keys(pattern.operations);
  if (c.operations !== undefined) {
    const unknown = c.operations.filter((op) => !known.includes(op));
    if (unknown.length || c.operations.length === 0)
      throw new RangeError(
        `scheduleArbitrary: operations must be a non-empty list of ${pattern.name} operations (${known.join(', ')}), got ${JSON.stringify(c.operations)}`,
      );
  }
  let settings;
  let faultSettings: Readonly<Record<string, number>>;
  try {
    settings = fillSettings(pattern, c.settings);
    faultSettings = splitFaultSettings([...faults], c.faultSettings).faults;
    const stray = Object.keys(c.faultSettings ?? {}).filter((name) => !Object.hasOwn(faultSettings, name));
    if (stray.length)
      throw new SettingError(stray[0], `no fault in the set has a setting '${stray[0]}'`, c.faultSettings![stray[0]]);
  } catch (error) {
    if (error instanceof SettingError) throw new RangeError(`scheduleArbitrary: settings: ${error.message}`);
    throw error;
  }
  const restricted = c.operations !== undefined && known.some((op) => !c.operations!.includes(op));
  return {
    pattern,
    clients: range('clients', c.clients, [2, 8], 1, 64),
    keys: range('keys', c.keys, [1, 4], 1, 64),
    maxSessionsPerClient: maxSessions,
    faults,
    maxFaults,
    leasesMs,
    nodeTimeoutMs: c.nodeTimeoutMs ?? NODE_TIMEOUT_MS.default,
    settings,
    faultSettings,
    ...(restricted ? { operations: new Set(c.operations) } : {}),
  };
}
