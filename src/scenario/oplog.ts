import { check, describeViolation } from '../checker/index.ts';
import type { CheckResult } from '../checker/index.ts';
import type { FaultKind, FaultRecord, History, OpRecord } from '../history/types.ts';
import type { Checkable } from '../checker/spec.ts';
import { classifyError } from '../runner/classify.ts';
import { startClock, type Clock } from '../history/clock.ts';

/**
 * The history of a scripted scenario, recorded the way the runner records a generated one: each
 * operation with the instants it was invoked and answered, each fault with its window. The checker
 * then judges it against `spec` (the scenario's pattern) exactly as it judges a chaos run.
 */
export class OpLog<I = unknown, O = unknown> {
  private readonly clock: Clock = startClock();
  private readonly ops: OpRecord<I, O>[] = [];
  private readonly faults: FaultRecord[] = [];
  private nextId = 0;

  constructor(private readonly spec: Checkable) {}

  now(): number {
    return this.clock.now();
  }

  /** Run `call` (which sends `input` for `key`) and record it; rethrows nothing, returns the reply or undefined. */
  async op(client: number, key: string, input: I, call: () => Promise<unknown>): Promise<unknown> {
    const id = this.nextId++;
    const invokedAt = this.clock.now();
    try {
      const output = await call();
      this.ops.push({
        type: 'op',
        id,
        client,
        key,
        input,
        invokedAt,
        completedAt: this.clock.now(),
        outcome: 'ok',
        output: output as O,
      });
      return output;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.ops.push({
        type: 'op',
        id,
        client,
        key,
        input,
        invokedAt,
        completedAt: this.clock.now(),
        outcome: classifyError(error),
        error: message,
      });
      return undefined;
    }
  }

  fault(kind: FaultKind, target: string, startedAt: number, lossy: boolean, detail: string): void {
    this.faults.push({
      type: 'fault',
      id: this.nextId++,
      kind,
      target,
      startedAt,
      endedAt: this.clock.now(),
      lossy,
      detail,
    });
  }

  history(): History<I, O> {
    return { ops: [...this.ops].sort((a, b) => a.invokedAt - b.invokedAt), faults: [...this.faults], topology: [] };
  }

  check(): CheckResult<I, O> {
    return check(this.history(), this.spec);
  }
}

/** The checker's answer as scenario observations: verdict, named invariants, losses. */
export interface CheckSummary {
  readonly verdict: string;
  readonly invariants: string[];
  readonly violations: string[];
  readonly replicationLosses: string[];
}

export function summariseCheck(result: CheckResult): CheckSummary {
  return {
    verdict: result.verdict,
    invariants: [...new Set(result.violations.map((v) => v.invariant))],
    violations: result.violations.map((v) => describeViolation(v)),
    replicationLosses: result.replicationLosses.map(
      (l) => `${l.invariant} explained by ${l.faults.map((f) => f.kind).join(', ')}: ${l.message}`,
    ),
  };
}

export function checkLine(summary: CheckSummary): string {
  const named = summary.invariants.length > 0 ? ` (${summary.invariants.join(', ')})` : '';
  return `checker verdict: ${summary.verdict}${named}`;
}
