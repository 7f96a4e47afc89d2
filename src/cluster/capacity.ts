import os from 'node:os';

/**
 * How many local 3+3 clusters one job may run side by side on this machine (`--clusters auto`, the
 * CLI's default). A run mostly waits on faults, heals and leases, so a core holds two lanes (on the
 * 2-core development box four clusters ran a certify 3.7 times as fast as one, with no false alarm);
 * past four, the lanes wait on the cores instead. Each cluster is six redis-server processes and a
 * Toxiproxy server: about 100 MiB with the histories' small keys, counted as 256 MiB to leave room.
 */
export const MOST_AUTO_CLUSTERS = 4;
export const MIB_PER_CLUSTER = 256;

export interface Machine {
  readonly cores: number;
  readonly freeMiB: number;
}

export const thisMachine = (): Machine => ({
  cores: os.availableParallelism(),
  freeMiB: Math.floor(os.freemem() / 2 ** 20),
});

/** The clusters the machine holds: two per core, at most four, as many as its free memory allows, at least 1. */
export function autoClusters(machine: Machine = thisMachine()): number {
  return Math.max(1, Math.min(MOST_AUTO_CLUSTERS, 2 * machine.cores, Math.floor(machine.freeMiB / MIB_PER_CLUSTER)));
}

/** Why `clusters` will not fit on the machine, or undefined when they do (memory is the one hard limit). */
export function capacityProblem(clusters: number, machine: Machine = thisMachine()): string | undefined {
  const fits = Math.floor(machine.freeMiB / MIB_PER_CLUSTER);
  if (clusters <= Math.max(1, fits)) return undefined;
  return `this machine's free memory (${machine.freeMiB} MiB) holds ${Math.max(1, fits)} at ${MIB_PER_CLUSTER} MiB each; ask for fewer`;
}
