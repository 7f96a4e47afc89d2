import { FAULT_DESCRIPTORS, type FaultName } from '../faults/index.ts';

/** Names of the faults whose descriptors say they run on an external cluster `as` given. */
const runningThere = (...as: readonly ('client' | 'destructive')[]): readonly FaultName[] =>
  FAULT_DESCRIPTORS.filter((f) => (as as readonly string[]).includes(f.external)).map((f) => f.name);

/** Faults that need nothing but a client: run on any cluster. */
const CLIENT_SIDE = runningThere('client');
/** Faults an external cluster takes only with --allow-destructive: they flush scripts, block a master or move slots. */
export const DESTRUCTIVE = runningThere('destructive');

/**
 * Which of the faults asked an external cluster runs, and which it skips (node freezes, kills and
 * network toxics need the processes and proxies only a local or compose cluster has).
 */
export function externalFaultsFor(
  external: boolean,
  allowDestructive: boolean,
  asked: readonly FaultName[],
): { faults: FaultName[]; skipped: FaultName[] } {
  if (!external) return { faults: [...asked], skipped: [] };
  const possible = new Set<FaultName>([...CLIENT_SIDE, ...(allowDestructive ? DESTRUCTIVE : [])]);
  return { faults: asked.filter((f) => possible.has(f)), skipped: asked.filter((f) => !possible.has(f)) };
}

/**
 * An explicit --faults list naming a fault an external cluster would not run is a usage error (it
 * would otherwise run without it and pass); the default `all` runs what it can and lists the rest.
 */
export function refusedExternalFaults(asked: readonly FaultName[], allowDestructive: boolean): string | undefined {
  const { skipped } = externalFaultsFor(true, allowDestructive, asked);
  if (skipped.length === 0) return undefined;
  const destructive = skipped.filter((f) => DESTRUCTIVE.includes(f));
  if (destructive.length) return `--faults ${destructive.join(', ')} on an external cluster needs --allow-destructive`;
  return `--faults ${skipped.join(', ')} cannot run on an external cluster (they need the nodes' processes or proxies; only ${[...CLIENT_SIDE, ...DESTRUCTIVE].join(', ')} can)`;
}
