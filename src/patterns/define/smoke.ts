/**
 * A dry run of a team's model before any cluster starts: a few sessions drawn as a job would draw
 * them, stepped one after another on one key, with leases running out between steps. A model that
 * throws, a step that returns nothing, an answer that does not match itself, or a draw that fails
 * is then the team's error in one line, naming the member, not an internal error an hour into a job.
 */
import fc from 'fast-check';
import type { SessionContext } from '../../generator/sessions/common.ts';
import type { AnyPattern } from '../types.ts';
import { PatternError } from './validate.ts';

const CLIENTS = 3;
const SEEDS = [1, 2, 3, 4];

const message = (error: unknown): string => ((error as Error)?.message ?? String(error)).split('\n')[0];

function sessionsOf(pattern: AnyPattern, seed: number): unknown[] {
  const settings = Object.fromEntries(Object.entries(pattern.settings ?? {}).map(([name, s]) => [name, s.default]));
  const options = {
    faults: new Set(['lease-expiry', 'client-freeze'] as const),
    leasesMs: [250, 500],
    maxSessionsPerClient: 2,
    settings,
  };
  const inputs: unknown[] = [];
  for (let client = 0; client < CLIENTS; client++) {
    const ctx = { client, clients: CLIENTS, keys: 1, options } as unknown as SessionContext;
    try {
      const [steps] = fc.sample(pattern.session(ctx, 0), { seed: seed * 10 + client, numRuns: 1 });
      for (const step of steps) if (step.type === 'op') inputs.push(step.input);
    } catch (error) {
      throw new PatternError(
        'session',
        `drawing a session failed: ${message(error)} (an argument's draw, or the session group)`,
      );
    }
  }
  return inputs;
}

/** Throws a PatternError for the first thing the dry run meets that the model cannot do. */
export function smokeCheck(pattern: AnyPattern): void {
  const model = pattern.model;
  let id = 0;
  for (const seed of SEEDS) {
    let state: unknown = guard('model.init', 'making the initial state', () => model.init());
    for (const input of sessionsOf(pattern, seed)) {
      const what = guard('model', 'describing an input', () => model.describeInput(input));
      const step = guard('model.step', `on ${what}`, () => model.step(state, input, ++id)) as
        | { state?: unknown; output?: unknown }
        | undefined;
      if (step === null || typeof step !== 'object' || !('state' in step) || !('output' in step)) {
        throw new PatternError(
          'model.step',
          `returned ${step === undefined ? 'nothing' : JSON.stringify(step)} on ${what}: return { state, output }`,
        );
      }
      if (step.output === undefined)
        throw new PatternError('model.step', `answered undefined on ${what}: a nil reply is null`);
      if (!guard('model.matches', `on ${what}`, () => model.outputMatches(step.output, step.output))) {
        throw new PatternError(
          'model.matches',
          `the answer ${JSON.stringify(step.output)} to ${what} does not match itself`,
        );
      }
      guard('model.describe', 'describing a state', () => model.describeState(step.state));
      guard('model.hash', 'hashing a state', () => model.hashState(step.state));
      state = step.state;
      const tag = guard('model.leases', 'listing the leases of a state', () => model.leaseTag(state));
      if (tag !== null && id % 3 === 0)
        state = guard('model.expire', `ending lease ${tag}`, () => model.expire(state, tag));
    }
  }
}

function guard<T>(member: string, doing: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof PatternError) throw error;
    throw new PatternError(member, `threw ${doing}: ${message(error)}`);
  }
}
