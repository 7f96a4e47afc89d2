import type { FaultRecord, History, OpRecord, ProbeRecord, TopologyRecord } from './types.ts';
import type { Clock } from './clock.ts';

/** Collects the run's records in the order they complete; ids in the order operations start. */
export class Recorder {
  private nextId = 0;
  readonly ops: OpRecord[] = [];
  readonly faults: FaultRecord[] = [];
  readonly topology: TopologyRecord[] = [];
  readonly probes: ProbeRecord[] = [];

  constructor(readonly clock: Clock) {}

  id(): number {
    return this.nextId++;
  }

  op(record: OpRecord): void {
    this.ops.push(record);
  }

  fault(record: Omit<FaultRecord, 'type' | 'id'>): void {
    this.faults.push({ type: 'fault', id: this.id(), ...record });
  }

  topologyChanged(summary: string): void {
    const last = this.topology.at(-1);
    if (last?.summary !== summary) this.topology.push({ type: 'topology', at: this.clock.now(), summary });
  }

  history(): History {
    return {
      ops: [...this.ops].sort((a, b) => a.invokedAt - b.invokedAt),
      faults: [...this.faults].sort((a, b) => a.startedAt - b.startedAt),
      topology: this.topology,
      probes: this.probes,
    };
  }
}
