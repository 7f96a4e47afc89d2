/**
 * Legal histories of one lock key shaped like the soak's hardest runs (the ones that ran out of budget): several clients
 * polling `acquire` every few ms while another holds the lock, leases running out mid-history,
 * holders extending and releasing, stalled clients, and client-link cuts. During a cut an operation
 * times out (indeterminate: it ran never, once, or twice, the second time resent on reconnect), is
 * refused (and may still have run before the refusal), or is answered late after a resend that may
 * have run it twice; an optional lossy fault rolls the key back to an earlier state.
 *
 * Like simulate.ts this is an oracle independent of the checker: a plain store of (token, deadline)
 * written from the scripts' contract (lua/lock/), effects applied at random instants inside each
 * operation's window in the order of those instants, leases running out at their deadlines. Nothing
 * from src/ but the record types. Deterministic per seed.
 */
import type { FaultRecord, History, OpRecord } from '../../../../src/history/types.ts';
import type { LockOpInput } from './lock.ts';

export interface PollingLockOptions {
  /** Contending clients (each runs sessions one after another). Default 3–6, drawn. */
  readonly clients?: number;
  /** Stop starting sessions once this many operations were planned. Default 50–100, drawn. */
  readonly ops?: number;
  /** Client-link cuts (connections cut, commands may run twice). Default 1–3, drawn. */
  readonly cuts?: number;
  /** Add a lossy fault that rolls the key back to an earlier state. Default: a third of the seeds. */
  readonly lossy?: boolean;
}

export interface PollingLock {
  readonly history: History<LockOpInput, unknown>;
  /** Per op id, the instants its executions took effect (none, one, or two: a resent command). */
  readonly executions: ReadonlyMap<number, readonly number[]>;
  /** The rollback the lossy fault made, if any: when, and how many states of the lineage it dropped. */
  readonly rollback?: { readonly at: number; readonly dropped: number };
}

const KEY = 'k';

/** A mulberry32 stream: small, fast and the same on every platform. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Planned {
  readonly id: number;
  readonly client: number;
  readonly input: LockOpInput;
  readonly invokedAt: number;
  completedAt: number;
  outcome: 'ok' | 'info' | 'fail';
  /** Instants the operation ran at. */
  effects: number[];
}

/** The draws of one history, all from one stream, in the order the phases below make them. */
interface Draws {
  readonly rnd: () => number;
  int(min: number, max: number): number;
  pick<T>(values: readonly T[]): T;
  between(from: number, to: number): number;
}

function draws(seed: number): Draws {
  const rnd = random(seed);
  return {
    rnd,
    int: (min, max) => min + Math.floor(rnd() * (max - min + 1)),
    pick: (values) => values[Math.floor(rnd() * values.length)],
    between: (from, to) => from + rnd() * Math.max(0, to - from),
  };
}

type Cut = { readonly from: number; readonly to: number };
type Step = { readonly client: number; readonly input: LockOpInput; readonly pauseMs: number };

export function pollingLockHistory(seed: number, options: PollingLockOptions = {}): PollingLock {
  const d = draws(seed);
  const clients = options.clients ?? d.int(3, 6);
  const target = options.ops ?? d.int(50, 100);
  const cutCount = options.cuts ?? d.int(1, 3);
  const lossy = options.lossy ?? d.rnd() < 1 / 3;

  // The cuts lie where the clients are busy: the first two seconds.
  const cuts: Cut[] = [];
  for (let c = 0; c < cutCount; c++) {
    const from = d.between(0, 1_500);
    cuts.push({ from, to: from + d.between(100, 400) });
  }
  const ops = timed(d, planned(d, clients, target), cuts);
  const { outputs, lossyFault, rollback } = applied(d, ops, lossy);
  return {
    history: { ops: opRecords(ops, outputs), faults: faultRecords(ops.length, cuts, lossyFault), topology: [] },
    executions: new Map(ops.map((o) => [o.id, o.effects])),
    ...(rollback ? { rollback } : {}),
  };
}

/**
 * Plans: a client runs lock sessions back to back (src/patterns/lock/sessions.ts in shape): an
 * acquire, then retries after a backoff or a wait and a burst of polls every few ms (all sent,
 * whatever the answers), extends, maybe a stall past the lease, maybe a release, maybe a stray
 * release or extend with another client's token.
 */
function planned({ rnd, int, pick }: Draws, clients: number, target: number): Step[][] {
  const steps: Step[][] = [];
  let count = 0;
  for (let client = 0; count < target; client = (client + 1) % clients) {
    const attempt = steps.filter((s) => s[0]?.client === client).length;
    const own = `c${client}a${attempt}`;
    const ttlMs = pick([250, 500]);
    const session: Step[] = [];
    const add = (input: LockOpInput, pauseMs: number) => session.push({ client, input, pauseMs });
    add(
      { op: 'acquire', token: own, ttlMs },
      attempt === 0 ? (rnd() < 0.5 ? int(0, 400) : int(ttlMs - 60, ttlMs)) : int(0, 60),
    );
    if (rnd() < 0.3) {
      for (let r = int(0, 4); r > 0; r--) add({ op: 'acquire', token: own, ttlMs }, int(10, 80));
    } else {
      const every = int(3, 20);
      add({ op: 'acquire', token: own, ttlMs }, int(0, 400));
      for (let r = int(4, 16); r > 0; r--) add({ op: 'acquire', token: own, ttlMs }, every);
    }
    for (let e = int(0, 2); e > 0; e--) add({ op: 'extend', token: own, ttlMs }, int(0, Math.floor(ttlMs * 0.9)));
    const stall = rnd() < 0.3 ? ttlMs + int(0, 100) : 0;
    if (rnd() < 0.5) add({ op: 'release', token: own }, stall + int(0, 50));
    if (rnd() < 0.25) {
      const other = `c${(client + 1) % clients}a${int(0, 1)}`;
      add(rnd() < 0.5 ? { op: 'release', token: other } : { op: 'extend', token: other, ttlMs }, int(0, 50));
    }
    steps.push(session);
    count += session.length;
  }
  return steps;
}

/**
 * Intervals: a client's timing does not depend on its answers. A cut decides how each operation
 * that meets it ends; a stalled client answers late.
 */
function timed({ rnd, pick, between }: Draws, steps: Step[][], cuts: readonly Cut[]): Planned[] {
  const cutAt = (t: number) => cuts.find((c) => c.from <= t && t <= c.to);
  const overlapsCut = (from: number, to: number) => cuts.some((c) => c.from <= to && c.to >= from);
  const ops: Planned[] = [];
  const freeAt = new Map<number, number>();
  for (const session of steps) {
    for (const step of session) {
      const invokedAt = (freeAt.get(step.client) ?? 0) + step.pauseMs;
      const id = ops.length;
      let completedAt = invokedAt + between(0.3, 1.5);
      let outcome: Planned['outcome'] = 'ok';
      let runs = 1;
      const cut = cutAt(invokedAt);
      if (cut !== undefined) {
        const fate = rnd();
        if (fate < 0.45) {
          // Timed out: the command may have run before the cut, on the resend after it, both, or never.
          outcome = 'info';
          completedAt = Math.min(cut.to, invokedAt + between(50, 300));
          runs = pick([0, 0, 1, 1, 2]);
        } else if (fate < 0.8) {
          // Refused (READONLY, CLUSTERDOWN...): the copy sent before the cut may have run.
          outcome = 'fail';
          runs = pick([0, 0, 0, 1, 1, 2]);
        } else {
          // Answered after the reconnect: the resent copy ran; the first one may have too.
          completedAt = cut.to + between(1, 10);
          runs = pick([1, 1, 2]);
        }
      } else if (rnd() < 0.05) {
        // A stalled client: the reply is seen long after it was sent.
        completedAt = invokedAt + between(20, 600);
      }
      if (outcome === 'ok' && runs === 1 && overlapsCut(invokedAt, completedAt) && rnd() < 0.3) runs = 2;
      // An operation that is not answered runs late at most until shortly after the cut healed.
      const latest = outcome === 'ok' ? completedAt : Math.max(completedAt, cut?.to ?? completedAt) + 50;
      const effects = Array.from({ length: runs }, () => between(invokedAt, latest)).sort((a, b) => a - b);
      ops.push({ id, client: step.client, input: step.input, invokedAt, completedAt, outcome, effects });
      freeAt.set(step.client, completedAt);
    }
  }
  return ops;
}

type Held = { token: string; deadline: number } | undefined;

/**
 * Effects in the order of their instants, against a store of (token, deadline). Its lineage (the
 * states it went through) is what a lossy fault may roll back to.
 */
function applied({ int, between }: Draws, ops: readonly Planned[], lossy: boolean) {
  let held: Held;
  const lineage: Held[] = [undefined];
  const events: { at: number; op?: Planned; rollback?: true }[] = [];
  for (const op of ops) for (const at of op.effects) events.push({ at, op });
  const end = Math.max(...ops.map((o) => o.completedAt));
  let lossyFault: Cut | undefined;
  if (lossy) {
    const from = between(0, end * 0.8);
    lossyFault = { from, to: from + between(100, 500) };
    events.push({ at: between(lossyFault.from, lossyFault.to), rollback: true });
  }
  events.sort((a, b) => a.at - b.at);
  const outputs = new Map<number, unknown>();
  let rollback: PollingLock['rollback'];
  for (const event of events) {
    const now = event.at;
    if (held !== undefined && now > held.deadline) held = undefined;
    if (event.rollback) {
      // A promoted replica missed the newest writes: the key is one of the lineage's earlier states
      // (or gone, if that state's lease has run out since).
      const dropped = Math.min(lineage.length - 1, int(1, 3));
      lineage.length -= dropped;
      held = lineage[lineage.length - 1];
      if (held !== undefined && now > held.deadline) held = undefined;
      rollback = { at: now, dropped };
      continue;
    }
    const before = held;
    const [after, output] = lockStep(held, event.op!.input, now);
    held = after;
    if (held !== before) lineage.push(held);
    // With two executions the client sees the later one's reply (the first was cut off).
    outputs.set(event.op!.id, output);
  }
  return { outputs, lossyFault, rollback };
}

/** One execution of a lock script at instant `now`, from the scripts' contract. */
function lockStep(held: Held, input: LockOpInput, now: number): [Held, unknown] {
  if (input.op === 'acquire') return held ? [held, 0] : [{ token: input.token, deadline: now + input.ttlMs }, 1];
  if (!held) return [held, null];
  if (held.token !== input.token) return [held, -1];
  return [
    input.op === 'release' || input.ttlMs <= 0 ? undefined : { token: held.token, deadline: now + input.ttlMs },
    1,
  ];
}

function opRecords(ops: readonly Planned[], outputs: ReadonlyMap<number, unknown>): OpRecord<LockOpInput, unknown>[] {
  const records: OpRecord<LockOpInput, unknown>[] = ops.map((op) => {
    const base = {
      type: 'op' as const,
      id: op.id,
      client: op.client,
      key: KEY,
      input: op.input,
      invokedAt: op.invokedAt,
      completedAt: op.completedAt,
    };
    if (op.outcome === 'ok') return { ...base, outcome: 'ok', output: outputs.get(op.id) };
    if (op.outcome === 'fail') return { ...base, outcome: 'fail', error: 'refused' };
    return { ...base, outcome: 'info', error: 'timed out' };
  });
  return records.sort((a, b) => a.invokedAt - b.invokedAt || a.id - b.id);
}

function faultRecords(firstId: number, cuts: readonly Cut[], lossyFault: Cut | undefined): FaultRecord[] {
  let faultId = firstId;
  const faults: FaultRecord[] = cuts.map((c) => ({
    type: 'fault',
    id: faultId++,
    kind: 'toxic',
    target: 'node 0 client link',
    startedAt: c.from,
    endedAt: c.to,
    lossy: false,
    cutsConnections: true,
    detail: 'timeout on the client link',
  }));
  if (lossyFault) {
    faults.push({
      type: 'fault',
      id: faultId++,
      kind: 'failover-force',
      target: 'node 0',
      startedAt: lossyFault.from,
      endedAt: lossyFault.to,
      lossy: true,
      cutsConnections: true,
      detail: 'forced failover',
    });
  }
  return faults;
}
