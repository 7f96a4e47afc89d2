import fc from 'fast-check';
import type { AimedDelayStep, CommandFaultStep } from '../plan/schedule.ts';
import { applyAimedDelay } from './aimed-apply.ts';
import { applyCommandFault } from './command-apply.ts';
import { defineFault, type DrawContext } from './types.ts';

type CommandDelayStep = Extract<CommandFaultStep, { kind: 'command-delay' }> | AimedDelayStep;
type ReplyLossStep = Extract<CommandFaultStep, { kind: 'reply-loss' }>;

/**
 * What every command fault draws alike. Each stays armed for at least half the run's expected span
 * (a fault aimed at a command that comes once, late — a release — must still be armed when it
 * comes) and catches up to a few commands.
 */
function common({ horizonMs, keys }: DrawContext) {
  return {
    window: fc.integer({ min: Math.max(200, Math.round(horizonMs / 2)), max: Math.max(200, horizonMs) }),
    command: fc.integer({ min: 0, max: 999 }),
    // One key in three: a fault on any key catches more, one on a key shows a counterexample its target.
    key: fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: keys - 1 }) },
    ),
  };
}

const withoutAbsent = <T extends object>(step: T): T =>
  Object.fromEntries(Object.entries(step).filter(([, v]) => v !== undefined)) as T;

/**
 * Hold a command (or its reply) with one name on the client links. Holds are drawn around the
 * leases (3/4 of one to two), the width a read-then-write must survive; drawn four times as often
 * as lost replies. Or hold the first command of one operation of the schedule (aimed).
 */
export const commandDelay = defineFault({
  name: 'command-delay',
  description:
    'hold a command the implementation sends, or its reply, on the client links (a lease ends mid-operation)',
  backends: 'any',
  external: 'never',
  recordedAs: 'command-delay',
  draw: {
    lane: 'command',
    weight: 4,
    step: (ctx) => {
      const { window, command, key } = common(ctx);
      // From under a lease to twice it: a hold that spans the rest of a lease, with time for another client to step in.
      const holdMs = fc.constantFrom(...ctx.leasesMs).chain((lease) =>
        fc.integer({
          min: Math.round(lease * 0.75),
          max: Math.max(Math.round(lease * 0.75), Math.min(1_500, lease * 2)),
        }),
      );
      // Four holds in five last until the key's own TTL has run out and another client has touched the
      // key (then 0-100 ms more; waiting at most holdMs past the TTL): a lease ends while its holder is
      // between two commands, and the holder's next command lands after someone else stepped in.
      const pastExpiryMs = fc.oneof(
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 4, arbitrary: fc.integer({ min: 0, max: 100 }) },
      );
      return fc
        .record({
          kind: fc.constant('command-delay' as const),
          atMs: ctx.at,
          ms: window,
          command,
          key,
          on: fc.constantFrom('reply' as const, 'request' as const),
          holdMs,
          pastExpiryMs,
          limit: fc.integer({ min: 1, max: 4 }),
        })
        .map(withoutAbsent);
    },
    // Aimed at a race's operation (src/generator/races.ts). At a lease's end: held until the lease it
    // was taken with has run out and the contender has stepped in (then 0-60 ms, so what the held
    // command does next lands while the contender still polls), or a lease or two at most. At a last
    // place: held until the contender's first command there was answered (then 0-60 ms: its write
    // may not have landed yet, and both reads then saw the place free), or half a second at most.
    // A race that allows it refuses the operation's first command one time in four (BUSY; it never runs).
    aimed: ({ client, op, leaseMs, instant, refusable }) => {
      if (instant === 'last-place') {
        type Hold = Pick<AimedDelayStep, 'on' | 'holdMs' | 'pastTouchMs' | 'refuse'>;
        const hold: fc.Arbitrary<Hold> = fc.record({
          on: fc.constant('reply' as const),
          holdMs: fc.integer({ min: 200, max: 500 }),
          pastTouchMs: fc.integer({ min: 0, max: 60 }),
        });
        const refusal: fc.Arbitrary<Hold> = fc.constant({ on: 'request', holdMs: 0, refuse: true });
        return (refusable ? fc.oneof({ weight: 3, arbitrary: hold }, { weight: 1, arbitrary: refusal }) : hold).map(
          (step): AimedDelayStep => ({ kind: 'aimed-delay', atMs: 0, client, op, ...step }),
        );
      }
      return fc
        .record({
          on: fc.constantFrom('reply' as const, 'request' as const),
          // Whole-second leases (time-scale settings) pass the 1.5 s cap: then the hold is the lease itself.
          holdMs: fc.integer({ min: leaseMs, max: Math.max(leaseMs, Math.min(1_500, leaseMs * 2)) }),
          pastExpiryMs: fc.integer({ min: 0, max: 60 }),
        })
        .map((hold): AimedDelayStep => ({ kind: 'aimed-delay', atMs: 0, client, op, ...hold }));
    },
  },
  is: (step): step is CommandDelayStep => step.kind === 'command-delay' || step.kind === 'aimed-delay',
  lossy: () => false,
  cutsConnections: () => false,
  apply: (step, ctx) => (step.kind === 'aimed-delay' ? applyAimedDelay(step, ctx) : applyCommandFault(step, ctx)),
});

/** Let a command run, then cut its connection before the reply (ioredis resends it: a retry, or a ghost). */
export const replyLoss = defineFault({
  name: 'reply-loss',
  description: 'let a command run, then cut its connection before the reply reaches the client',
  backends: 'any',
  external: 'never',
  recordedAs: 'reply-loss',
  draw: {
    lane: 'command',
    weight: 1,
    step: (ctx) => {
      const { window, command, key } = common(ctx);
      return fc
        .record({
          kind: fc.constant('reply-loss' as const),
          atMs: ctx.at,
          ms: window,
          command,
          key,
          limit: fc.integer({ min: 1, max: 2 }),
        })
        .map(withoutAbsent);
    },
  },
  is: (step): step is ReplyLossStep => step.kind === 'reply-loss',
  lossy: () => false,
  cutsConnections: () => true,
  apply: applyCommandFault,
});
