/**
 * A scenario reproduces one known failure of the idempotency store (or one hazard of the rate limiter) on a
 * real cluster: a broken variant and its remediation run the *same* schedule, and one judge
 * decides for both whether the guarantee held. Keeping the judge outside the variants is what
 * makes a scenario honest: put the broken variant in the remediated slot and it must fail.
 */
import type { LocalCluster } from '../cluster/local.ts';
import type { LocalClusterConstraints } from '../cluster/options.ts';

export type Slot = 'broken' | 'remediated';

/** What a variant's run gets: a healthy cluster (possibly shared with other scenarios), a key namespace of its own, a narrator. */
export interface StepContext {
  readonly cluster: LocalCluster;
  /** Unique per run of a variant; every key a step writes carries it, so steps never see each other's keys. */
  readonly namespace: string;
  readonly slot: Slot;
  /** One line of narrative (what fires, what came back). */
  say(line: string): void;
}

export interface Variant<O> {
  /** Short name for the narrative: "complete.lua without the owner check". */
  readonly label: string;
  /** Where it lives or what it changes, e.g. a script path or a client option. */
  readonly source: string;
  run(ctx: StepContext): Promise<O>;
}

export interface Judgement {
  readonly held: boolean;
  /** The figures the decision rests on, in words. */
  readonly why: string;
}

/**
 * O is the scenario's observations: plain JSON-able figures. Members that take an O are methods
 * (bivariant), so any Scenario<O> is also a Scenario<object> for catalogues and runners.
 */
export interface Scenario<O extends object> {
  readonly name: string;
  readonly title: string;
  /** Which row of which seed it reproduces, in our words. */
  readonly row: string;
  /** The cluster it needs; scenarios with equal options share one cluster in a batch. */
  readonly cluster: LocalClusterConstraints;
  /** The fault schedule, in words. */
  readonly fault: string;
  /** What the harness must observe when the variant is broken. */
  readonly observe: string;
  /** The SRE-checklist metric that would have alerted (or the figure standing in for it). */
  readonly metric: string;
  readonly broken: Variant<O>;
  readonly remediated: Variant<O>;
  /** One rule for both slots: did the guarantee hold in this run? */
  judge(observations: O): Judgement;
  /** What the broken run must show beyond failing the judge (the row's exact symptom); each missing item, in words. */
  documented(observations: O): string[];
  /** The metric's value in this run, as an SRE would read it. */
  metricValue(observations: O): number | string;
  /** Caveats printed after the result, e.g. what a remediation does not guarantee. */
  readonly notes?: readonly string[];
}

export type AnyScenario = Scenario<object>;

export interface SlotResult {
  readonly slot: Slot;
  readonly variant: string;
  readonly source: string;
  /** Undefined when the run crashed (see error). */
  readonly held?: boolean;
  readonly why: string;
  readonly metric: { readonly name: string; readonly value: number | string | null };
  readonly observations: object | null;
  readonly error?: string;
  readonly ms: number;
}

export interface ScenarioResult {
  readonly name: string;
  readonly title: string;
  readonly row: string;
  readonly fault: string;
  readonly observe: string;
  /** The broken variant failed as documented and the remediation held. */
  readonly passed: boolean;
  /** Why it did not pass, one item each. */
  readonly problems: readonly string[];
  readonly broken: SlotResult;
  readonly remediated: SlotResult;
  readonly notes: readonly string[];
  readonly ms: number;
}
