/**
 * An independent source of legal histories: clients issuing operations one after another against
 * a plain in-memory store of the pattern, written from the scripts' contract (lua/<pattern>/,
 * docs/) and sharing no code with the checker or the models (nothing from src/ but the history
 * record's type). Each operation takes effect at one instant inside its interval, drawn at random,
 * and the store applies the effects in the order of those instants, reading its own clock for
 * expiry; so the history has a real linearization, and a checker that rejects one raised a false
 * alarm. An indeterminate operation may take effect (possibly after its client gave up) or never.
 */
import type { History, OpRecord } from '../../../../src/history/types.ts';

/** ok: took effect, reply seen. info-applied: took effect, reply lost. info-lost: reply lost, never ran. fail: refused, never ran. */
export type Outcome = 'ok' | 'info-applied' | 'info-lost' | 'fail';

export interface Step<I> {
  readonly client: number;
  readonly key: string;
  readonly input: I;
  /** Time the client waits after its previous operation before invoking this one. */
  readonly thinkMs: number;
  /** Time from invocation to reply (or to giving up, for an indeterminate operation). */
  readonly durationMs: number;
  /** Where in the interval the operation takes effect, 0 (invocation) to 1 (reply). */
  readonly effect: number;
  readonly outcome: Outcome;
}

/** A pattern's store: applies one operation at instant `now` and answers what the client sees. */
export interface Store<I> {
  apply(key: string, input: I, now: number): unknown;
}

export interface Simulated<I> {
  readonly history: History<I, unknown>;
  /** Instant each operation took effect (by id); absent for those that never did. */
  readonly tookEffectAt: ReadonlyMap<number, number>;
}

export interface SimulateOptions {
  /** An indeterminate operation that ran did so up to this long after its client gave up. */
  readonly lateMs?: number;
  /**
   * The first operation (client 0's first) runs alone: every other client starts after its reply.
   * The ratelimit corruption needs one hit nothing else can have preceded.
   */
  readonly quietFirst?: boolean;
}

export function simulate<I>(store: Store<I>, steps: readonly Step<I>[], options: SimulateOptions = {}): Simulated<I> {
  const lateMs = options.lateMs ?? 100;
  // Intervals first: a client's timing does not depend on what it is answered.
  const freeAt = new Map<number, number>();
  const timed = steps.map((step, id) => {
    const invokedAt = (freeAt.get(step.client) ?? 0) + step.thinkMs;
    const completedAt = invokedAt + step.durationMs;
    freeAt.set(step.client, completedAt);
    const span = step.outcome === 'info-applied' ? step.durationMs + lateMs : step.durationMs;
    return { step, id, invokedAt, completedAt, at: invokedAt + step.effect * span };
  });
  if (options.quietFirst && timed.length > 0) {
    const first = timed.findIndex((t) => t.step.client === 0);
    if (first >= 0) {
      const quietUntil = timed[first].completedAt + 1;
      for (const t of timed) {
        if (t.step.client === 0) continue;
        t.invokedAt += quietUntil;
        t.completedAt += quietUntil;
        t.at += quietUntil;
      }
    }
  }

  const outputs = new Map<number, unknown>();
  const tookEffectAt = new Map<number, number>();
  const effects = timed
    .filter((t) => t.step.outcome === 'ok' || t.step.outcome === 'info-applied')
    .sort((a, b) => a.at - b.at || a.id - b.id);
  for (const t of effects) {
    outputs.set(t.id, store.apply(t.step.key, t.step.input, t.at));
    tookEffectAt.set(t.id, t.at);
  }

  const ops = timed.map(({ step, id, invokedAt, completedAt }): OpRecord<I, unknown> => {
    const base = {
      type: 'op' as const,
      id,
      client: step.client,
      key: step.key,
      input: step.input,
      invokedAt,
      completedAt,
    };
    if (step.outcome === 'ok') return { ...base, outcome: 'ok', output: outputs.get(id) };
    if (step.outcome === 'fail') return { ...base, outcome: 'fail', error: 'refused' };
    return { ...base, outcome: 'info', error: 'timed out' };
  });
  ops.sort((a, b) => a.invokedAt - b.invokedAt || a.id - b.id);
  return { history: { ops, faults: [], topology: [] }, tookEffectAt };
}

/** Whether a key, stored with a deadline, is still there at `now`: Redis expires a key once now > deadline. */
export function live<T extends { readonly deadline: number }>(entry: T | undefined, now: number): entry is T {
  return entry !== undefined && !(now > entry.deadline);
}
