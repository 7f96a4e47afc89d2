/**
 * The search's holder lookahead (the `search` group's requires, grants, holdsIdentity, holderOf,
 * requiresVacant, mayEnd, excludes, answerLeaves) derived for a pattern that names holders
 * (`arg.holder()`, the `holder` group) and declares no `search` group. Without it a team's lock
 * searched up to 6,000 times the states of the built-in on polling histories (bench/results/pattern-parity.md).
 *
 * Derived by stepping the model, as the races are: from its initial state, on a few inputs of each
 * operation drawn as a session draws them, with three probe holders, to every state they reach (which
 * must be few: a model whose states keep growing gets none). Where a granting step puts its
 * holder in the state is where a state's holder is read (a path such as `token`); what each answer
 * shows of the holder is read from the explored states in which the model gives that answer. Every
 * contract the checker relies on (src/model/types.ts) is then checked on every explored state, and
 * again for each new input seen while checking; a model that breaks one (two holders at once, an
 * operation changing another's hold) gets no lookahead: a plain search, the same verdicts, slower.
 * It assumes what a step does not show on a few states: that holder names are opaque to the model.
 */
import { liveLeaseTags } from '../../model/leases.ts';
import type { Model } from '../../model/types.ts';
import type { SearchHints } from './groups.ts';
import {
  candidatePaths,
  explore,
  holderArgs,
  ID,
  type Input,
  OWN,
  type Path,
  PROBES,
  renamed,
  sampleInputs,
  type Shape,
  valueAt,
  withHolder,
} from './holder-probes.ts';
import type { PatternSpec } from './spec.ts';

/** What an answer of one input shows, from the explored states in which the model gives it. */
interface Answer {
  readonly requires: boolean;
  readonly vacant: boolean;
  readonly excludes: boolean;
  readonly grants: boolean;
  /** An explored state giving the answer (-1: none). */
  readonly from: number;
  /** Does it leave the same state from every explored state that gives it? */
  readonly leaves: boolean;
}

/** What the explored states say of one input (its holder the probe's own). */
interface Reading {
  /** The model's step from each explored state: its answer and the state it leaves. */
  readonly steps: readonly ({ readonly output: unknown; readonly state: unknown; readonly hash: string } | undefined)[];
  readonly mayEnd: boolean;
}

/** One input shape (its holder the probe's own) and what its answers show, as far as asked. */
interface Known {
  readonly shape: Shape;
  readonly reading: Reading | null;
  /** By raw reply (a number, a string, nil); the unseen answer under UNSEEN. */
  readonly answers: Map<unknown, Answer>;
}

const UNSEEN = Symbol('unseen');

class Derivation<S> {
  private readonly byShape = new Map<string, Known>();
  /**
   * The same, by the history's input object: the search asks of each entry again in every pass and
   * scan order, and making the key text each time was most of the derived lookahead's cost.
   */
  private readonly byInput = new WeakMap<Input, Known>();
  private readonly hashes: string[];
  private readonly reachable: ReadonlySet<string>;
  /** A new input broke a contract: every hook says the least it may from then on. */
  poisoned = false;

  constructor(
    private readonly model: Model<S, Input, unknown>,
    private readonly states: readonly S[],
    private readonly path: Path,
    private readonly args: ReadonlyMap<string, string | undefined>,
  ) {
    this.hashes = states.map((s) => model.hashState(s));
    this.reachable = new Set(this.hashes);
  }

  holder(state: unknown): string | undefined {
    const v = valueAt(state, this.path);
    return typeof v === 'string' ? v : undefined;
  }

  /** Does an input shape, stepped from every explored state with each probe holder, keep the contracts? */
  check(shape: Shape): boolean {
    const { model, states } = this;
    const positive = (x: Input) => {
      const range = model.expiryRangeMs?.(x);
      const ms = range ? range[0] : model.expiryMs(x);
      return ms !== undefined && ms > 0;
    };
    for (let i = 0; i < states.length; i++) {
      const s = states[i];
      const before = this.holder(s);
      for (const name of PROBES) {
        const x = withHolder(shape, name);
        let left: S;
        try {
          left = model.step(s, x, ID).state;
        } catch {
          continue;
        }
        const hash = model.hashState(left);
        // Closed: an input never drawn must not lead out of the states its answers are read from.
        if (!this.reachable.has(hash)) return false;
        const after = this.holder(left);
        const changed = hash !== this.hashes[i];
        // grants: only an operation's own holder becomes current by its step.
        if (after !== undefined && after !== before && (shape.arg === undefined || after !== name)) return false;
        // mayEnd: a hold changes only by its own holder's operations.
        if (before !== undefined && before !== name && changed) return false;
        if (before !== undefined && shape.arg === undefined && changed) return false;
        // answerLeaves: its own holder's step leaves no holder, or it holding the lease the step set,
        // and ends the hold only when that lease is not positive.
        if (before === name && changed) {
          if (after !== undefined && (after !== name || !liveLeaseTags(model, left).includes(ID))) return false;
          if (after === undefined && positive(x)) return false;
        }
      }
    }
    return true;
  }

  /** Expiries: the end of a lease a held state does not hold changes nothing; none makes a holder. */
  checkExpiries(): boolean {
    const { model, states } = this;
    const tags = new Set(states.flatMap((s) => liveLeaseTags(model, s)));
    for (let i = 0; i < states.length; i++) {
      const before = this.holder(states[i]);
      const live = liveLeaseTags(model, states[i]);
      for (const tag of tags) {
        const left = model.expire(states[i], tag);
        const after = this.holder(left);
        if (after !== undefined && after !== before) return false;
        if (before !== undefined && !live.includes(tag) && model.hashState(left) !== this.hashes[i]) return false;
      }
    }
    return true;
  }

  private known(input: Input): Known {
    let known = this.byInput.get(input);
    if (known === undefined) this.byInput.set(input, (known = this.knownByShape(input)));
    return known;
  }

  private knownByShape(input: Input): Known {
    const arg = this.args.get(input.op);
    const shape: Shape = { op: input.op, arg, input: arg === undefined ? input : { ...input, [arg]: OWN } };
    const key = JSON.stringify(shape.input);
    let known = this.byShape.get(key);
    if (known === undefined) {
      const reading = this.args.has(input.op) && this.check(shape) ? this.read(shape) : null;
      if (reading === null) this.poisoned = true;
      this.byShape.set(key, (known = { shape, reading, answers: new Map() }));
    }
    return known;
  }

  private read(shape: Shape): Reading {
    let mayEnd = false;
    const steps = this.states.map((s, i) => {
      try {
        const r = this.model.step(s, shape.input, ID);
        const hash = this.model.hashState(r.state);
        if (shape.arg !== undefined && this.holder(s) === OWN && hash !== this.hashes[i]) mayEnd = true;
        return { output: r.output, state: r.state, hash };
      } catch {
        return undefined;
      }
    });
    return { steps, mayEnd };
  }

  /** What an answer of this input shows, from the explored states in which the model gives it. */
  classify(input: Input, observed: unknown, answered: boolean): Answer {
    const known = this.known(input);
    // A raw reply is its own key; an envelope or a list is read again each time.
    const key = !answered ? UNSEEN : observed === null || typeof observed !== 'object' ? observed : undefined;
    let answer = key === undefined ? undefined : known.answers.get(key);
    if (answer === undefined) {
      answer = this.classifyAnew(known, observed, answered);
      if (key !== undefined) known.answers.set(key, answer);
    }
    return answer;
  }

  private classifyAnew({ shape, reading }: Known, observed: unknown, answered: boolean): Answer {
    const none: Answer = { requires: false, vacant: false, excludes: false, grants: false, from: -1, leaves: false };
    if (reading === null) return { ...none, grants: true };
    let outs = 0;
    let requires = true;
    let vacant = true;
    let excludes = true;
    let grants = false;
    let from = -1;
    let leaves = true;
    reading.steps.forEach((step, i) => {
      if (step === undefined || (answered && !this.model.outputMatches(step.output, observed))) return;
      const before = this.holder(this.states[i]);
      outs++;
      if (before !== OWN) requires = false;
      if (before !== undefined) vacant = false;
      if (before === OWN) excludes = false;
      if (before !== OWN && this.holder(step.state) === OWN) grants = true;
      if (from === -1) from = i;
      else if (reading.steps[from]!.hash !== step.hash) leaves = false;
    });
    const has = shape.arg !== undefined;
    const result: Answer =
      outs === 0
        ? none
        : { requires: has && requires, vacant, excludes: has && excludes, grants: has && grants, from, leaves };
    return result;
  }

  mayEnd(input: Input): string | undefined {
    const { shape, reading } = this.known(input);
    return reading?.mayEnd && shape.arg !== undefined ? (input[shape.arg] as string) : undefined;
  }

  /** The state this answer leaves whatever the state before, the input's own holder and id in it. */
  leaves(input: Input, observed: unknown, id: number): S | undefined {
    const c = this.classify(input, observed, true);
    if (this.poisoned || !c.leaves || c.from === -1) return undefined;
    const arg = this.args.get(input.op);
    const before = this.states[c.from];
    let left: S;
    try {
      left = this.model.step(before, withHolder({ op: input.op, arg, input }, OWN), id).state;
    } catch {
      return undefined;
    }
    const text = JSON.stringify(left) ?? '';
    if (PROBES.some((p) => p !== OWN && text.includes(p))) return undefined;
    if (arg === undefined) return text.includes(OWN) ? undefined : left;
    return renamed(left, OWN, input[arg] as string) as S | undefined;
  }
}

/**
 * The holder lookahead for a pattern that names holders and declares no `search` group, or
 * undefined when the model shows none it can rely on (see the file's comment).
 */
export function deriveHolderHints<S>(
  spec: PatternSpec,
  model: Model<S, Input, unknown>,
): SearchHints<S, Input> | undefined {
  const args = holderArgs(spec);
  if (args === undefined) return undefined;
  const shapes: Shape[] = [];
  const seenShapes = new Set<string>();
  for (const [op, arg] of args) {
    let inputs: Input[];
    try {
      inputs = sampleInputs(spec, op, OWN);
    } catch {
      return undefined;
    }
    for (const input of inputs) {
      const shape = { op, arg, input: withHolder({ op, arg, input }, OWN) };
      const key = JSON.stringify(shape.input);
      if (!seenShapes.has(key)) seenShapes.add(key), shapes.push(shape);
    }
  }
  let states: S[] | undefined;
  try {
    states = explore(model, shapes);
  } catch {
    return undefined;
  }
  if (states === undefined) return undefined;
  const d = candidatePaths(model, states, shapes)
    .map((path) => new Derivation(model, states, path, args))
    .find(
      (c) => states.some((s) => c.holder(s) !== undefined) && c.checkExpiries() && shapes.every((sh) => c.check(sh)),
    );
  if (d === undefined) return undefined;
  const ownHolder = (input: Input): string => input[args.get(input.op)!] as string;
  return {
    requires: (input, output) =>
      !d.poisoned && d.classify(input, output, true).requires ? ownHolder(input) : undefined,
    grants: (input, output) =>
      d.classify(input, output, output !== undefined).grants && args.get(input.op) !== undefined
        ? ownHolder(input)
        : undefined,
    holdsIdentity: (state, identity) => d.poisoned || d.holder(state) === identity,
    holderOf: (state) => (d.poisoned ? undefined : d.holder(state)),
    requiresVacant: (input, output) => !d.poisoned && d.classify(input, output, true).vacant,
    mayEnd: (input) => d.mayEnd(input),
    excludes: (input, output) =>
      !d.poisoned && d.classify(input, output, true).excludes ? ownHolder(input) : undefined,
    answerLeaves: (input, output, id) => d.leaves(input, output, id),
  };
}
