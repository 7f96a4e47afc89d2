import type { Cluster } from '../cluster/types.ts';
import { isAimedDelay, type Schedule } from '../plan/schedule.ts';
import type { History } from '../history/types.ts';
import { runNemesis } from '../nemesis/nemesis.ts';
import { applyNetwork } from '../faults/slow-network.ts';
import { keySlot } from '../resp/key-slot.ts';
import type { Subject } from '../subject/types.ts';
import { runClient } from './client.ts';
import { OperationBoard } from './operation-board.ts';
import { probeTtls, type ProbeOutcome } from './probe.ts';
import { startClock } from '../history/clock.ts';
import { Recorder } from '../history/recorder.ts';
import { recordClientClocks, setClientClocks } from './client-clocks.ts';

export interface RunContext {
  readonly cluster: Cluster;
  /** One subject per logical client (at least as many as the schedule has clients). */
  readonly subjects: readonly Subject[];
  /** Fresh per run, so runs never see each other's keys. */
  readonly namespace: string;
  readonly nodeTimeoutMs: number;
  /** Longest the harness waits for one operation before recording it as indeterminate. */
  readonly opTimeoutMs: number;
  /**
   * The input as client c's operation sends and the history records it: with the semantics its
   * subject declared (a pattern's semantic variants). Absent: as the schedule has it.
   */
  readonly declared?: (client: number, input: unknown) => unknown;
}

export interface RunResult {
  readonly history: History;
  /** Logical key names used, index = schedule key. */
  readonly keys: readonly string[];
  readonly ms: number;
  /** Keys whose post-run TTL could not be read, with why: the history lacks their probe, so an
   *  invariant that reads probes (counter-has-ttl) could not look at them. The job reports it. */
  readonly unreadProbes: readonly string[];
  /** Keys whose probe read another name than the key handed over, or was skipped, with why. */
  readonly probeNotes: readonly string[];
}

/**
 * Execute a schedule: every client's steps concurrently with the nemesis's faults, then heal.
 * Produces the history; judging it is the checker's job.
 */
export async function runSchedule(schedule: Schedule, ctx: RunContext): Promise<RunResult> {
  if (ctx.subjects.length < schedule.clients.length) {
    throw new RangeError(`runSchedule: ${schedule.clients.length} clients but only ${ctx.subjects.length} subjects`);
  }
  const clock = startClock();
  const recorder = new Recorder(clock);
  const keys = Array.from({ length: schedule.keys }, (_, k) => `${ctx.namespace}:k${k}`);
  const redisKey = (k: number) => ctx.subjects[0].redisKey?.(keys[k]) ?? `{${keys[k]}}`;
  recorder.topologyChanged(String(await ctx.cluster.topology()));
  let probed: ProbeOutcome = { unread: [], notes: [] };
  // The history records each input with the semantics the subject declared (a schedule is the same
  // whoever runs it: one kept in a corpus or a counterexample is judged by the subject re-running it).
  const declared = ctx.declared && ((c: number) => (input: unknown) => ctx.declared!(c, input));
  // Only a run with a fault aimed at an operation posts its operations (the per-operation path stays as it was otherwise).
  const operations = schedule.faults.some(isAimedDelay) ? new OperationBoard(schedule.clients.length) : undefined;
  const clocks = schedule.clientClocks;
  try {
    setClientClocks(ctx.subjects, clocks);
    await applyNetwork(ctx.cluster, schedule.network);
    await Promise.all([
      ...schedule.clients.map((steps, c) =>
        runClient(c, steps, ctx.subjects[c], (k) => keys[k], recorder, ctx.opTimeoutMs, declared?.(c), operations),
      ),
      runNemesis(schedule.faults, {
        cluster: ctx.cluster,
        recorder,
        slotOf: (k) => keySlot(redisKey(k)),
        nodeTimeoutMs: ctx.nodeTimeoutMs,
        network: schedule.network,
        ...(operations ? { operations } : {}),
        ...(schedule.race ? { raceSlot: keySlot(redisKey(schedule.race.key)) } : {}),
      }),
    ]);
    if (schedule.network) {
      const ms = schedule.network.clientLatencyMs;
      recorder.fault({
        kind: 'slow-network',
        target: 'every client link',
        lossy: false,
        startedAt: 0,
        endedAt: clock.now(),
        detail: `+${ms}ms on every reply to a client, all run`,
      });
    }
    if (clocks) recordClientClocks(recorder, clocks, ctx.subjects, clock.now());
    probed = await probeTtls(ctx.cluster, ctx.subjects[0], keys, recorder);
  } finally {
    if (clocks)
      setClientClocks(
        ctx.subjects,
        clocks.map(() => 0),
      );
    await ctx.cluster.heal();
  }
  return { history: recorder.history(), keys, ms: clock.now(), unreadProbes: probed.unread, probeNotes: probed.notes };
}
