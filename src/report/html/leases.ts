/**
 * Lease and TTL windows of one key, for the timeline: which acknowledged ops set the key's expiry
 * (found by the coverage replay through the model), how long the key was certainly held, and the
 * window in which the expiry may have fired ([invokedAt + ms − ε, completedAt + ms + ε], as the
 * checker assumes), cut short where a later op replaced or removed it.
 */
import type { History, OpRecord } from '../../history/types.ts';
import type { Model } from '../../model/types.ts';
import { replay } from '../coverage.ts';

export interface LeaseWindow {
  readonly opId: number;
  readonly client: number;
  readonly op: string;
  readonly ms: number;
  /** The op's acknowledgement: from here the key certainly carried this expiry. */
  readonly from: number;
  /** invokedAt + ms − ε: it cannot have run out before. */
  readonly certainUntil: number;
  /** completedAt + ms + ε: it has run out by then. */
  readonly windowEnd: number;
  /** A later op replaced the expiry or removed the key: the window ends there. */
  readonly cutAt?: number;
  readonly cutBy?: number;
  /** The replay needed this expiry to explain a later op. */
  readonly expired: boolean;
}

export function leaseWindows(
  history: History,
  model: Model<unknown, unknown, unknown>,
  key: string,
  eps: number,
): LeaseWindow[] {
  const ops = history.ops.filter((op) => op.key === key);
  const byId = new Map<number, OpRecord>(ops.map((op) => [op.id, op]));
  const steps = replay({ ops, faults: [], topology: [] }, model, eps);
  const out: LeaseWindow[] = [];
  steps.forEach((step, i) => {
    if (!step.setsExpiry || step.opId === undefined) return;
    const op = byId.get(step.opId);
    const ms = op ? model.expiryMs(op.input) : undefined;
    if (!op || ms === undefined || ms <= 0) return;
    let cutAt: number | undefined;
    let cutBy: number | undefined;
    let expired = false;
    for (const later of steps.slice(i + 1)) {
      if (later.leaseOf === op.id) {
        expired = true;
        break;
      }
      // Same lease tag afterwards means the op's expiry still stands (a refused complete, a hit).
      if (later.opId !== undefined && later.leaseTag !== op.id) {
        cutAt = later.to;
        cutBy = later.opId;
        break;
      }
    }
    const name = (op.input as { op?: unknown } | null)?.op;
    out.push({
      opId: op.id,
      client: op.client,
      op: typeof name === 'string' ? name : 'op',
      ms,
      from: op.completedAt,
      certainUntil: op.invokedAt + ms - eps,
      windowEnd: op.completedAt + ms + eps,
      cutAt,
      cutBy,
      expired,
    });
  });
  return out;
}
