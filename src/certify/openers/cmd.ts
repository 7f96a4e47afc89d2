import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnyPattern } from '../../patterns/types.ts';
import { ProcessSession } from '../../process-protocol/session.ts';
import { perClientProcessSubjects, processSubjects } from '../../impl/process-subjects.ts';
import { HANDSHAKE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../chaos-options.ts';
import type { OpenedImpl } from '../types.ts';
import type { Durability } from '../../plan/durability.ts';
import type { Cluster } from '../../cluster/types.ts';
import { CMD_CLOCK_REACH } from '../../impl/client-clock.ts';
import { cmdClockPlan, openClientProcesses, type ClientProcesses } from './cmd-clients.ts';

/** What a caller may set on a cmd: implementation; every field is optional. */
export interface CmdOpenerConstraints {
  /** Where the program's stderr goes. Default: a fresh temp dir's stderr.log, removed at close once
   *  saveStderr has copied it into the run folder. */
  stderrFile?: string;
  /** Working directory of the program. Default: the harness's. */
  cwd?: string;
  /** Longest wait for the hello reply, ms. Default 30 000 (a program connects and loads scripts first). */
  handshakeTimeoutMs?: number;
  /** Longest wait for one response before the program counts as hung, ms. Default 12 000: above the
   *  runner's own 10 s per-operation bound, so the runner records the operation first. */
  requestTimeoutMs?: number;
  /** Grace between `shutdown` and killing the process group, ms. Default 3 000. */
  shutdownTimeoutMs?: number;
  /** `--durability wait:N:T`, handed to the program in its hello. */
  durability?: Durability;
  /** client-clock is in the fault set: a process per logical client, each under its own clock
   *  (./cmd-clients.ts), where the program reads the C library's clock. Default false: one process. */
  clientClocks?: boolean;
}

/** The opened program: an OpenedImpl that also says where the program's stderr went. */
export interface OpenedProcessImpl extends OpenedImpl {
  readonly stderrFile: string;
  /** Copy the program's stderr into a run folder (as implementation-stderr.log); returns that file. */
  saveStderr(dir: string): string;
}

function ms(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < 1)
    throw new RangeError(`cmdOpener: ${name} must be a positive integer (ms), got ${String(value)}`);
  return v;
}

/**
 * cmd:'COMMAND ARGS' — one program speaking chaoslua-process/1 (docs/process-protocol.md) serves
 * every logical client; with `clientClocks`, a process of it per client where its clock can be moved. Its misbehaviour (refused handshake, garbage, crash, hang) is reported by
 * findings(), which fails the job; it never throws for it.
 */
export function cmdOpener(
  pattern: AnyPattern,
  command: string,
  constraints: CmdOpenerConstraints = {},
): (cluster: Cluster, clients: number) => Promise<OpenedProcessImpl> {
  const handshakeTimeoutMs = ms('handshakeTimeoutMs', constraints.handshakeTimeoutMs, HANDSHAKE_TIMEOUT_MS);
  const requestTimeoutMs = ms('requestTimeoutMs', constraints.requestTimeoutMs, REQUEST_TIMEOUT_MS);
  const shutdownTimeoutMs = ms('shutdownTimeoutMs', constraints.shutdownTimeoutMs, 3_000);
  if (command.trim() === '') throw new RangeError('cmdOpener: command must not be empty');
  return async (cluster, clients) => {
    const tempDir =
      constraints.stderrFile === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-cmd-')) : undefined;
    const stderrFile = constraints.stderrFile ?? path.join(tempDir!, 'stderr.log');
    fs.mkdirSync(path.dirname(stderrFile), { recursive: true });
    let savedTo: string | undefined;
    const options = {
      command,
      pattern,
      seeds: cluster.seeds(),
      natMap: cluster.natMap(),
      // Independent masters: every master's address, in node order (the hello's `masters`).
      ...(cluster.topologyKind === 'masters' ? { masters: cluster.seeds() } : {}),
      // A primary under Sentinel: where the Sentinels are and the name they know it by (the hello's `sentinel`).
      ...(cluster.topologyKind === 'sentinel' && cluster.sentinels && cluster.sentinelName
        ? { sentinel: { sentinels: cluster.sentinels(), name: cluster.sentinelName } }
        : {}),
      stderrFile,
      cwd: constraints.cwd,
      handshakeTimeoutMs,
      requestTimeoutMs,
      shutdownTimeoutMs,
      durability: constraints.durability,
    };
    const plan = constraints.clientClocks ? cmdClockPlan(command, constraints.cwd) : undefined;
    // A process per client shares the one stderr file (each appends), so saveStderr keeps all of it.
    let perClient: ClientProcesses | undefined;
    let session: ProcessSession;
    if (plan?.perClient) {
      perClient = await openClientProcesses(options, clients, plan.preload);
      session = perClient.processes[0].session;
    } else session = await ProcessSession.open({ ...options, clients });
    const who = session.implementation;
    const impl = `cmd:${command}${who ? ` (${who.name} ${who.version})` : ''}`;
    const reach = plan?.reach ?? CMD_CLOCK_REACH;
    return {
      impl,
      subjects: perClient
        ? perClientProcessSubjects(perClient.processes, pattern, impl, reach)
        : processSubjects(session, pattern, clients, impl),
      ...(session.capabilities ? { capabilities: session.capabilities } : {}),
      ...(session.keys ? { keyMapping: session.keys.description } : {}),
      findings: () =>
        perClient
          ? perClient.processes.flatMap(({ session: s }, c) => s.findings().map((f) => `${f} (client c${c}'s process)`))
          : session.findings(),
      clientClockReach: reach,
      async close() {
        await (perClient ? perClient.close() : session.close());
        // What the program wrote while shutting down belongs in the report's copy too; then the
        // temp copy has served its purpose. Unsaved (the job never reached its report), it stays.
        if (savedTo) fs.copyFileSync(stderrFile, savedTo);
        if (savedTo && tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
      },
      stderrFile,
      saveStderr(dir) {
        const target = path.join(dir, 'implementation-stderr.log');
        fs.copyFileSync(stderrFile, target);
        savedTo = target;
        return target;
      },
    };
  };
}
