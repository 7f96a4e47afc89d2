import { describeFault, type CommandFaultStep } from '../plan/schedule.ts';
import { isPlainRead, isPlainWrite, type CaughtCommand, type CommandRule } from '../resp/index.ts';
import { sleep } from '../history/clock.ts';
import type { Applied, NemesisContext } from './types.ts';

/** How long a caught command may take to play out after its hold (a reply from a node a cluster fault froze). */
export const SETTLE_GRACE_MS = 15_000;
/** How often to look for the first data command of a run that has seen none yet. */
const NAME_POLL_MS = 10;

/**
 * Arm a rule on the client links' RESP points for the fault's window, picking the command by the
 * names the links have carried, and wait until what it caught has played out.
 */
export async function applyCommandFault(fault: CommandFaultStep, ctx: NemesisContext): Promise<Applied> {
  const detail = describeFault(fault);
  const points = ctx.cluster.commands;
  const runNames = ctx.commandNames;
  const kind = fault.kind;
  if (!points || !runNames)
    return {
      kind,
      target: 'none',
      lossy: false,
      detail: `${detail}: this cluster has no RESP point on its client links`,
    };
  const windowEnd = performance.now() + fault.ms;
  const names = await observedNames(runNames, windowEnd);
  if (names.length === 0) return { kind, target: 'none', lossy: false, detail: `${detail}: no data command went by` };
  const name = names[fault.command % names.length];
  const slot = fault.key === undefined ? undefined : ctx.slotOf(fault.key);
  // A staged race's key is held by the race's own aimed delay: a window that caught its contender
  // instead would make it arrive after the racer, and the race would never be run.
  if (slot !== undefined && slot === ctx.raceSlot)
    return { kind, target: 'none', lossy: false, detail: `${detail}: left to the race staged on its key` };
  const exceptSlot = ctx.raceSlot === undefined ? {} : { exceptSlot: ctx.raceSlot };
  const on = fault.kind === 'command-delay' ? sideToHold(name, fault.on) : undefined;
  const rule: CommandRule =
    fault.kind === 'reply-loss'
      ? { action: 'lose-reply', names: [name], slot, ...exceptSlot, limit: fault.limit }
      : {
          action: on === 'reply' ? 'delay-reply' : 'delay-request',
          names: [name],
          slot,
          ...exceptSlot,
          holdMs: fault.holdMs,
          limit: fault.limit,
          ...(fault.pastExpiryMs === undefined ? {} : { pastExpiryMs: fault.pastExpiryMs, ttlOf: ttlReader(ctx) }),
        };
  const armed = points.arm(rule);
  const window = timer(Math.max(0, windowEnd - performance.now()));
  try {
    await Promise.race([window.done, armed.full]);
  } finally {
    window.clear();
    armed.disarm();
  }
  // The fault lasts until what it caught has played out: the record's window must cover every cut.
  const grace = timer((fault.kind === 'command-delay' ? fault.holdMs : 0) + SETTLE_GRACE_MS);
  const settled = await Promise.race([armed.settled().then(() => true), grace.done.then(() => false)]);
  grace.clear();
  if (!settled) points.reset();
  const target = `${fault.key === undefined ? 'every client link' : `client links, slot ${slot} (k${fault.key})`}`;
  return {
    kind,
    target,
    lossy: false,
    // A lost reply is a cut connection: ioredis resends what was unanswered, so the command may run twice.
    cutsConnections: kind === 'reply-loss' && armed.caught.length > 0,
    detail: `${detail}: ${name}${on && on !== (fault as { on?: string }).on ? ` (a plain ${on === 'reply' ? 'read: its reply' : 'write: its forwarding'} held)` : ''} (observed: ${names.join(', ')}); caught ${describeCaught(armed.caught, ctx)}`,
  };
}

/**
 * Where a hold makes a gap nothing else makes: after a plain read (what it read goes stale before the
 * client acts on it) and before a plain write (it lands after the state it was decided on changed).
 * Holding a read before Redis sees it is only a pause, and holding a write's reply only a late
 * acknowledgement, which pauses, client freezes and latency toxics already make. A script reads and
 * writes at once, so both sides of it count: the drawn one is kept.
 */
export function sideToHold(name: string, drawn: 'request' | 'reply'): 'request' | 'reply' {
  if (isPlainRead(name)) return 'reply';
  if (isPlainWrite(name)) return 'request';
  return drawn;
}

/** A key's remaining TTL, read on the node itself (control plane: no proxy, no fault in the way). */
export function ttlReader(ctx: NemesisContext): (node: string, key: Buffer) => Promise<number> {
  return async (node, key) => {
    const index = ctx.cluster.nodes.findIndex((n) => n.name === node);
    return index < 0 ? -1 : Number(await ctx.cluster.command(index, 'PTTL', key.toString()));
  };
}

/** The data command names to pick from; waits (within the window) for the first one of a fresh cluster. */
async function observedNames(runNames: { current(): string[] }, until: number): Promise<string[]> {
  for (;;) {
    const names = runNames.current();
    if (names.length > 0 || performance.now() >= until) return names;
    await sleep(NAME_POLL_MS);
  }
}

export function describeCaught(caught: readonly CaughtCommand[], ctx: NemesisContext): string {
  if (caught.length === 0) return 'none';
  // Caught instants are performance.now(); the history's clock counts from the run's start.
  const offset = performance.now() - ctx.recorder.clock.now();
  return caught
    .map(
      (c) =>
        `${c.name} ${c.key ?? '(no key)'} on ${c.node} connection ${c.connection} at ${Math.round(c.at - offset)}ms`,
    )
    .join(', ');
}

/**
 * A wait that is cleared once a race is decided: a window left running (seconds, when the rule filled
 * at once) kept the process alive after the job, measured at 12-13 s after certify wrote its report.
 */
export function timer(ms: number): { done: Promise<void>; clear(): void } {
  let handle: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => (handle = setTimeout(resolve, ms)));
  return { done, clear: () => clearTimeout(handle) };
}
