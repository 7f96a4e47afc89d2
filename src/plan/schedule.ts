/**
 * A schedule: what each logical client does, in order, and which faults fire when. Pure data
 * (JSON round-trips), so a counterexample file can hold it and `replay` can run it again.
 * The plan's vocabulary is shared by every stage (generator -> runner -> history -> checker ->
 * report) and owned by none: this module imports nothing, so no stage depends on another through it.
 */

/** How a replica takes over its master's slots (CLUSTER FAILOVER's options). */
export type FailoverMode = 'default' | 'force' | 'takeover';

/** Which proxy of a node: `client` is what harness clients dial; `internal` carries replication and
 *  redirections between nodes (the announced port); `bus` carries cluster gossip. */
export type Link = 'client' | 'internal' | 'bus';

/** One thing a logical client does. Clients act one step at a time; clients overlap each other. */
export type ClientStep<I = unknown> =
  | { readonly type: 'op'; readonly key: number; readonly input: I }
  /** Think time or handler work: the client waits, then goes on. */
  | { readonly type: 'pause'; readonly ms: number }
  /** The client stops acting past its lease (GC pause, stuck worker), then resumes with old tokens. */
  | { readonly type: 'freeze'; readonly ms: number };

/** Which node a fault hits, resolved against the topology when it fires (roles move during a run). */
export interface FaultTarget {
  /** The shard serving this logical key. */
  readonly key: number;
  readonly role: 'master' | 'replica';
}

export type FaultStep =
  | { readonly kind: 'node-freeze'; readonly atMs: number; readonly target: FaultTarget; readonly ms: number }
  | { readonly kind: 'script-flush'; readonly atMs: number }
  /** Enough distinct EVALs on every master to push older EVAL-loaded scripts out of a server that evicts them (7.4+, Valkey 8). */
  | { readonly kind: 'script-evict'; readonly atMs: number; readonly scripts: number }
  /** Slow scripts on the master of a key's shard (or on every master) for `ms`: bursts of `burstMs`
   *  in which every other command there gets BUSY, `gapMs` apart (a cron job running a slow script). */
  | {
      readonly kind: 'busy-script';
      readonly atMs: number;
      readonly key: number;
      readonly everyMaster?: boolean;
      readonly ms: number;
      readonly burstMs: number;
      readonly gapMs: number;
    }
  | { readonly kind: 'failover'; readonly atMs: number; readonly key: number; readonly mode: FailoverMode }
  | {
      readonly kind: 'toxic';
      readonly atMs: number;
      readonly target: FaultTarget;
      readonly link: Link;
      readonly toxic: 'latency' | 'timeout' | 'reset_peer';
      /** How long the toxic stays. */
      readonly ms: number;
      /** Latency only: the delay added to each chunk (default: `ms`, as schedules before it was split). */
      readonly delayMs?: number;
    }
  | { readonly kind: 'kill-restart'; readonly atMs: number; readonly target: FaultTarget; readonly downMs: number }
  | ClockStep
  | PartitionStep
  | CommandFaultStep
  | AimedDelayStep;

/**
 * A node's wall clock moved for `ms` while it runs (the clock preload; its monotonic clock, which
 * Redis's timers use, never moves), then set true by the heal. `jump`: it steps by `offsetMs` and
 * stays there; `strobe`: it alternates between `offsetMs` and true every `periodMs`; `drift`: it runs
 * fast (or slow) by `driftPpm` parts per million. `failover`: the node is the replica of the key's
 * shard, and once its clock has moved it is promoted (CLUSTER FAILOVER, with its handshake), so that
 * leases the old master set are expired by the new master's clock: both sides of a failover.
 */
export type ClockStep =
  | (ClockStepBase<'clock-jump'> & { readonly offsetMs: number; readonly failover?: true })
  | (ClockStepBase<'clock-strobe'> & { readonly offsetMs: number; readonly periodMs: number })
  | (ClockStepBase<'clock-drift'> & { readonly driftPpm: number });

export interface ClockStepBase<K extends string> {
  readonly kind: K;
  readonly atMs: number;
  readonly target: FaultTarget;
  readonly ms: number;
}

export const isClockStep = (f: FaultStep): f is ClockStep =>
  f.kind === 'clock-jump' || f.kind === 'clock-strobe' || f.kind === 'clock-drift';

/**
 * A partition between nodes for `ms` (netns backend only), in one of Jepsen's shapes, aimed at the
 * shard of logical key `key`: `one` isolates its master; `majority` puts its master in a minority
 * with `seed`-drawn company; `bridge` splits the nodes in two halves joined by one node that sees
 * both; `primaries` isolates every master from every other node. Clients reach every side.
 */
export interface PartitionStep {
  readonly kind: 'partition';
  readonly atMs: number;
  readonly shape: 'one' | 'majority' | 'bridge' | 'primaries';
  readonly key: number;
  readonly ms: number;
  /** Draws the nodes a shape leaves open (who keeps the master company, how the halves fall). */
  readonly seed: number;
}

/**
 * A command-aware fault on the client links (the RESP points): for `ms` from `atMs`, up to `limit`
 * commands with one name are caught. The schedule cannot know what an implementation sends, so
 * `command` picks among the data commands the links have carried so far (sorted names, index modulo
 * their count), resolved when the fault fires, as a node target is resolved against the topology.
 */
export type CommandFaultStep =
  | {
      /** Hold the command before Redis sees it (`request`), or its reply after it ran (`reply`), for `holdMs`. */
      readonly kind: 'command-delay';
      readonly atMs: number;
      readonly ms: number;
      readonly command: number;
      /** Only commands on this logical key's slot; absent: any key. */
      readonly key?: number;
      readonly on: 'request' | 'reply';
      readonly holdMs: number;
      /** When present, the hold lasts until the caught command's key has run out of TTL and another
       *  client's command on it has been answered, then this long (waiting at most `holdMs` past the
       *  TTL, 1.5 s in all; `holdMs` for a key without one): the lease ends mid-operation and someone steps in. */
      readonly pastExpiryMs?: number;
      readonly limit: number;
    }
  | {
      /** Let the command run, then cut its connection before the reply reaches the client. */
      readonly kind: 'reply-loss';
      readonly atMs: number;
      readonly ms: number;
      readonly command: number;
      readonly key?: number;
      readonly limit: number;
    };

export const isCommandFault = (f: FaultStep): f is CommandFaultStep =>
  f.kind === 'command-delay' || f.kind === 'reply-loss';

/**
 * A command delay aimed at one operation of the schedule, not at a name and a window: when client
 * `client` invokes its operation number `op` (counted from 0 over its operations), the first data
 * command on its key's slot is caught, as `command-delay` catches one, and held before Redis sees it
 * or its reply after it ran (`on`; a plain read is always held on its reply, a plain write before it
 * is sent). Whatever an implementation sends, the command an operation sends first is where a
 * read-then-write goes stale: the GET of a release that DELs next, the read of a register. Nothing
 * is caught once the operation has been answered. Aimed delays come after the schedule's other
 * faults in its list and keep no order among themselves: each waits for its operation.
 */
export interface AimedDelayStep {
  readonly kind: 'aimed-delay';
  /** Always 0: the operation, not the clock, says when. */
  readonly atMs: number;
  readonly client: number;
  readonly op: number;
  readonly on: 'request' | 'reply';
  readonly holdMs: number;
  /** As command-delay's: hold until the key's TTL has run out and another client's command on it was answered, then this long. */
  readonly pastExpiryMs?: number;
  /** Or hold until another client's command on the key was answered, then this long, whatever its TTL
   *  (a race for a key's last place, where no lease runs out); at most holdMs. */
  readonly pastTouchMs?: number;
  /** Instead of holding it, refuse the command: it never reaches Redis and its client is answered BUSY. */
  readonly refuse?: true;
}

export const isAimedDelay = (f: FaultStep): f is AimedDelayStep => f.kind === 'aimed-delay';

/** Conditions that hold for a whole run, under whatever faults come and go. */
export interface NetworkProfile {
  /** Extra latency on every reply to a client, ms (with a quarter of it as jitter): every operation
   *  of two round trips gets a gap that wide between its calls. */
  readonly clientLatencyMs: number;
}

/**
 * A race staged at one of the pattern's critical instants (src/generator/races.ts): on its own key,
 * the holder's racing operation (it reads before it writes) and a contender timed to land just
 * after the instant its read can go stale at.
 */
export interface StagedRace {
  /** In words: "release at its TTL's end". */
  readonly name: string;
  readonly instant: 'lease-end' | 'last-place';
  readonly key: number;
  readonly holder: number;
  /** The holder's racing operation: its number among the holder's operations, from 0. */
  readonly op: number;
  readonly contender: number;
}

export interface Schedule<I = unknown> {
  /** A name in the pattern registry (src/patterns/index.ts); a schedule read from a file is checked against it. */
  readonly pattern: string;
  readonly keys: number;
  readonly clients: readonly (readonly ClientStep<I>[])[];
  readonly faults: readonly FaultStep[];
  /** Absent: the network adds nothing. */
  readonly network?: NetworkProfile;
  /** Absent: the run stages none. */
  readonly race?: StagedRace;
  /** Each logical client's wall-clock offset for the whole run, ms (index = client; positive: ahead
   *  of true). Absent: every client reads the true clock (the fault client-clock draws it). */
  readonly clientClocks?: readonly number[];
}

export function describeTarget(t: FaultTarget): string {
  return `${t.role} of k${t.key}`;
}

const signedMs = (ms: number) => `${ms >= 0 ? '+' : ''}${ms}ms`;

/** How long a command delay, windowed or aimed, holds what it caught. */
function holdPhrase(f: {
  readonly holdMs: number;
  readonly pastExpiryMs?: number;
  readonly pastTouchMs?: number;
}): string {
  if (f.pastTouchMs !== undefined)
    return `until another client's command on its key was answered, +${f.pastTouchMs}ms (at most ${f.holdMs}ms)`;
  return f.pastExpiryMs === undefined
    ? `for ${f.holdMs}ms`
    : `until its key's TTL has run out and another client touched it, +${f.pastExpiryMs}ms (${f.holdMs}ms if it has no TTL)`;
}

export function describeFault(f: FaultStep): string {
  const at = `@${f.atMs}ms`;
  switch (f.kind) {
    case 'node-freeze':
      return `${at} freeze ${describeTarget(f.target)} for ${f.ms}ms`;
    case 'script-flush':
      return `${at} SCRIPT FLUSH on every node`;
    case 'script-evict':
      return `${at} ${f.scripts} distinct EVALs on every master (evicts older EVAL-loaded scripts where the server does)`;
    case 'busy-script':
      return `${at} busy scripts on ${f.everyMaster ? 'every master' : `the master of k${f.key}`} for ${f.ms}ms (BUSY for ${f.burstMs}ms every ${f.burstMs + f.gapMs}ms)`;
    case 'failover':
      return `${at} CLUSTER FAILOVER ${f.mode.toUpperCase()} of the shard of k${f.key}`;
    case 'toxic':
      return `${at} ${f.toxic}${f.delayMs === undefined ? '' : ` ${f.delayMs}ms`} on the ${f.link} link of ${describeTarget(f.target)} for ${f.ms}ms`;
    case 'kill-restart':
      return `${at} kill -9 ${describeTarget(f.target)}, restart after ${f.downMs}ms`;
    case 'clock-jump':
      return `${at} ${f.failover ? 'step the clock of the replica of' : 'step the clock of'} ${f.failover ? `k${f.target.key}'s shard` : describeTarget(f.target)} ${signedMs(f.offsetMs)}${f.failover ? ', then promote it,' : ''} for ${f.ms}ms`;
    case 'clock-strobe':
      return `${at} strobe the clock of ${describeTarget(f.target)} between ${signedMs(f.offsetMs)} and true every ${f.periodMs}ms for ${f.ms}ms`;
    case 'clock-drift':
      return `${at} make the clock of ${describeTarget(f.target)} run ${f.driftPpm > 0 ? 'fast' : 'slow'} by ${Math.abs(f.driftPpm / 10_000)}% for ${f.ms}ms`;
    case 'partition':
      return `${at} partition (${f.shape}) around the master of k${f.key} for ${f.ms}ms`;
    case 'command-delay':
    case 'reply-loss': {
      const what = `up to ${f.limit} of observed command #${f.command}${f.key === undefined ? '' : ` on k${f.key}`} within ${f.ms}ms`;
      if (f.kind === 'reply-loss') return `${at} lose the reply to ${what} (cut the connection)`;
      return `${at} hold ${f.on === 'reply' ? 'the replies to' : 'the forwarding of'} ${what} ${holdPhrase(f)}`;
    }
    case 'aimed-delay':
      if (f.refuse)
        return `at c${f.client}'s operation #${f.op}: refuse its first command on its key (it never runs; BUSY is answered)`;
      return `at c${f.client}'s operation #${f.op}: hold ${f.on === 'reply' ? 'the reply to' : 'the forwarding of'} its first command on its key ${holdPhrase(f)}`;
  }
}

export function describeStep<I>(step: ClientStep<I>, describeInput: (input: I) => string): string {
  switch (step.type) {
    case 'op':
      return `k${step.key}.${describeInput(step.input)}`;
    case 'pause':
      return `pause ${step.ms}ms`;
    case 'freeze':
      return `FREEZE ${step.ms}ms`;
  }
}

/** The schedule as a counterexample reads: one line per client, one per fault. */
export function describeSchedule<I>(schedule: Schedule<I>, describeInput: (input: I) => string): string {
  const lines = schedule.clients.map(
    (steps, c) => `c${c}: ${steps.map((s) => describeStep(s, describeInput)).join('; ') || '(idle)'}`,
  );
  if (schedule.network)
    lines.push(`network: +${schedule.network.clientLatencyMs}ms on every reply to a client, all run`);
  if (schedule.race) lines.push(`race: ${describeRace(schedule.race)}`);
  if (schedule.clientClocks) lines.push(`client clocks: ${describeClientClocks(schedule.clientClocks)}, all run`);
  for (const f of schedule.faults) lines.push(`nemesis: ${describeFault(f)}`);
  return lines.join('\n');
}

/** `c0 +12ms, c3 -2017ms`: the clients' clock offsets as a counterexample reads them (clients at 0 left out). */
export function describeClientClocks(offsets: readonly number[]): string {
  return (
    offsets.flatMap((ms, c) => (ms === 0 ? [] : [`c${c} ${ms > 0 ? '+' : ''}${ms}ms`])).join(', ') ||
    'every client true'
  );
}

/** `release at its TTL's end on k3: c1's operation #1 against c4` */
export function describeRace(race: StagedRace): string {
  return `${race.name} on k${race.key}: c${race.holder}'s operation #${race.op} against c${race.contender}`;
}

export function countOps(schedule: Schedule): number {
  return schedule.clients.reduce((n, steps) => n + steps.filter((s) => s.type === 'op').length, 0);
}
