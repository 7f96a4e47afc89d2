import type { Cluster } from '../cluster/types.ts';
import type { Recorder } from '../history/recorder.ts';
import type { NetworkProfile } from '../plan/schedule.ts';

/** What the nemesis's lanes (nemesis.ts, command-faults.ts) act on and record into. */
export interface NemesisContext {
  readonly cluster: Cluster;
  readonly recorder: Recorder;
  /** Slot of a logical key, to aim at its shard. */
  readonly slotOf: (key: number) => number;
  readonly nodeTimeoutMs: number;
  /** The run's network profile, put back after every heal. */
  readonly network?: NetworkProfile;
}
