/**
 * Which state-machine transitions a history exercised, under which faults. Pure: replays each
 * key's acknowledged (ok) operations through the model in completion order.
 *
 * Expiry is a virtual transition, as in the checker (DESIGN.md, "The model and time"): a lease set
 * by op X runs out somewhere in [X.invokedAt + ms − ε, X.completedAt + ms + ε]. The replay lets it
 * run out before an op when that window has certainly passed, or when only the expired state
 * explains what the op observed. This is an estimate for coverage, not a verdict: the checker
 * decides legality; a replay that cannot explain an op counts it as `unexplained` and goes on.
 */
import { overlaps } from '../history/overlap.ts';
import { FAULT_KINDS, type FaultKind, type FaultRecord, type History, type OpRecord } from '../history/types.ts';
import type { Model } from '../model/types.ts';

export const NO_FAULT = 'no fault';

/** Column order: the quiet case first, then faults in the order the history's vocabulary lists them. */
const FAULT_ORDER: readonly FaultKind[] = FAULT_KINDS;

/** One step of the replay: an op applied, or a lease/TTL running out. */
export interface ReplayedTransition {
  readonly key: string;
  /** e.g. "pending → absent by release"; "(no change)" marks an op that left the state as it was. */
  readonly transition: string;
  /** The op that made it; undefined for an expiry. */
  readonly opId?: number;
  /** For an expiry: the op whose lease or TTL ran out. */
  readonly leaseOf?: number;
  /** When it happened, as well as the history can say. */
  readonly from: number;
  readonly to: number;
  /** The op set the key's expiry (its id became the state's lease tag). */
  readonly setsExpiry: boolean;
  /** The state's lease tag afterwards (null: no expiry, e.g. absent). */
  readonly leaseTag: number | null;
  /** The model prescribed another output than the one observed, whichever state was chosen. */
  readonly unexplained: boolean;
}

export interface CoverageRow {
  readonly transition: string;
  /** By column: NO_FAULT or a fault kind. An op under two faults counts in both columns. */
  readonly counts: Readonly<Record<string, number>>;
  /** Transitions of this row (each once, whatever the faults). */
  readonly total: number;
}

export interface CoverageTable {
  readonly pattern: string;
  readonly columns: readonly string[];
  readonly rows: readonly CoverageRow[];
  /** ok ops replayed. */
  readonly ops: number;
  /** ok ops whose output the replay could not explain. */
  readonly unexplained: number;
  /** Histories the table sums. */
  readonly histories: number;
}

type AnyModel = Model<unknown, unknown, unknown>;

const kindOf = (model: AnyModel, state: unknown): string => {
  if (model.stateKind) return model.stateKind(state);
  const kind = (state as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? kind : model.describeState(state);
};

/** Every transition of every key, in replay order per key (keys in order of first op). */
export function replay(history: History, model: AnyModel, eps = 25): ReplayedTransition[] {
  const byKey = new Map<string, OpRecord[]>();
  for (const op of history.ops) {
    if (op.outcome !== 'ok') continue;
    let list = byKey.get(op.key);
    if (!list) byKey.set(op.key, (list = []));
    list.push(op);
  }
  const out: ReplayedTransition[] = [];
  for (const [key, ops] of byKey) replayKey(key, ops, model, eps, out);
  return out;
}

function replayKey(key: string, ops: OpRecord[], model: AnyModel, eps: number, out: ReplayedTransition[]): void {
  ops.sort((a, b) => a.completedAt - b.completedAt || a.invokedAt - b.invokedAt || a.id - b.id);
  const byId = new Map(ops.map((op) => [op.id, op]));
  let state = model.init();
  for (const op of ops) {
    const tag = model.leaseTag(state);
    const lease = tag === null ? undefined : byId.get(tag);
    const ms = lease ? model.expiryMs(lease.input) : undefined;
    let canExpire = false;
    let mustExpire = false;
    let earliest = 0;
    let latest = 0;
    if (lease && ms !== undefined && tag !== null) {
      earliest = lease.invokedAt + ms - eps;
      latest = lease.completedAt + ms + eps;
      canExpire = earliest <= op.completedAt;
      mustExpire = latest < op.invokedAt;
    }
    const stay = model.step(state, op.input, op.id);
    const expired = canExpire && tag !== null ? model.expire(state, tag) : undefined;
    const gone = expired === undefined ? undefined : model.step(expired, op.input, op.id);
    const stayFits = model.outputMatches(stay.output, op.output);
    const goneFits = gone !== undefined && model.outputMatches(gone.output, op.output);
    const useGone = gone !== undefined && (mustExpire ? goneFits || !stayFits : goneFits && !stayFits);
    if (useGone && expired !== undefined && tag !== null && lease) {
      out.push({
        key,
        transition: `${kindOf(model, state)} → ${kindOf(model, expired)} by expiry`,
        leaseOf: lease.id,
        from: Math.max(earliest, lease.completedAt),
        to: Math.min(latest, op.completedAt),
        setsExpiry: false,
        leaseTag: model.leaseTag(expired),
        unexplained: false,
      });
      state = expired;
    }
    const step = useGone && gone ? gone : stay;
    const unchanged = model.hashState(state) === model.hashState(step.state);
    const name = (op.input as { op?: unknown } | null)?.op;
    out.push({
      key,
      transition: `${kindOf(model, state)} → ${kindOf(model, step.state)} by ${typeof name === 'string' ? name : 'op'}${unchanged ? ' (no change)' : ''}`,
      opId: op.id,
      from: op.invokedAt,
      to: op.completedAt,
      setsExpiry: model.leaseTag(step.state) === op.id,
      leaseTag: model.leaseTag(step.state),
      unexplained: !(useGone ? goneFits : stayFits),
    });
    state = step.state;
  }
}

/** Fault kinds active at some instant of [from, to]. */
export function activeFaults(faults: readonly FaultRecord[], from: number, to: number): FaultKind[] {
  const kinds = new Set<FaultKind>();
  for (const f of faults) if (overlaps(f, from, to)) kinds.add(f.kind);
  return [...kinds];
}

/**
 * The transitions × faults table of one history. `expected`: rows the table shows exercised or not,
 * first and in that order, so a gap is visible (a pattern's `transitions`; none for a bare model).
 */
export function coverage(history: History, model: AnyModel, expected: readonly string[] = [], eps = 25): CoverageTable {
  const transitions = replay(history, model, eps);
  const rows = new Map<string, { counts: Record<string, number>; total: number }>();
  for (const name of expected) rows.set(name, { counts: {}, total: 0 });
  let ops = 0;
  let unexplained = 0;
  for (const t of transitions) {
    if (t.opId !== undefined) ops++;
    if (t.unexplained) unexplained++;
    let row = rows.get(t.transition);
    if (!row) rows.set(t.transition, (row = { counts: {}, total: 0 }));
    row.total++;
    const kinds = activeFaults(history.faults, t.from, t.to);
    for (const column of kinds.length ? kinds : [NO_FAULT]) row.counts[column] = (row.counts[column] ?? 0) + 1;
  }
  return table(model.name, expected, rows, ops, unexplained, 1);
}

/** Tables of several histories (several runs of one job) as one; `expected` as for coverage(). */
export function mergeCoverage(
  tables: readonly CoverageTable[],
  expected: readonly string[] = [],
): CoverageTable | undefined {
  if (tables.length === 0) return undefined;
  const rows = new Map<string, { counts: Record<string, number>; total: number }>();
  for (const name of expected) rows.set(name, { counts: {}, total: 0 });
  for (const t of tables) {
    for (const r of t.rows) {
      let row = rows.get(r.transition);
      if (!row) rows.set(r.transition, (row = { counts: {}, total: 0 }));
      row.total += r.total;
      for (const [column, n] of Object.entries(r.counts)) row.counts[column] = (row.counts[column] ?? 0) + n;
    }
  }
  const sum = (f: (t: CoverageTable) => number) => tables.reduce((n, t) => n + f(t), 0);
  return table(
    tables[0].pattern,
    expected,
    rows,
    sum((t) => t.ops),
    sum((t) => t.unexplained),
    sum((t) => t.histories),
  );
}

function table(
  pattern: string,
  expected: readonly string[],
  rows: Map<string, { counts: Record<string, number>; total: number }>,
  ops: number,
  unexplained: number,
  histories: number,
): CoverageTable {
  const seen = new Set<string>();
  for (const r of rows.values()) for (const c of Object.keys(r.counts)) seen.add(c);
  const faultColumns = [...seen].filter((c) => c !== NO_FAULT).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const ordered = [...rows].sort(([a, ra], [b, rb]) => {
    const ia = expected.indexOf(a);
    const ib = expected.indexOf(b);
    if (ia >= 0 || ib >= 0) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
    return rb.total - ra.total || a.localeCompare(b);
  });
  return {
    pattern,
    columns: [NO_FAULT, ...faultColumns],
    rows: ordered.map(([transition, r]) => ({ transition, counts: r.counts, total: r.total })),
    ops,
    unexplained,
    histories,
  };
}

const rank = (kind: string) => {
  const i = FAULT_ORDER.indexOf(kind as FaultKind);
  return i < 0 ? FAULT_ORDER.length : i;
};
