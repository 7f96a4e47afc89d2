/**
 * The cmd: door under client-clock: a process per logical client, each started under the clock
 * preload with a clock page of its own, so client c's program reads its own wall clock, moved by
 * rewriting its page while it runs. Decided once per job from what the command runs
 * (src/impl/program-clock.ts): a Go or statically linked program keeps one process, and the
 * certificate says its clock was not reached and why.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clockLibrary, ClockLibraryError } from '../../clock/library.ts';
import { ClockPage } from '../../clock/page.ts';
import { cmdClockReach, cmdClockUnbuilt } from '../../impl/client-clock.ts';
import type { ClientProcess } from '../../impl/process-subjects.ts';
import { programClock } from '../../impl/program-clock.ts';
import { ProcessSession, type ProcessSessionOptions } from '../../process-protocol/session.ts';

/** How the job's cmd: program meets client-clock: a process per client (with the preload's path) or one. */
export type CmdClockPlan =
  | { readonly perClient: true; readonly preload: string; readonly reach: string }
  | { readonly perClient: false; readonly reach: string };

/** Whether `command` gets a process per client, and the certificate's words for how far its clock is reached. */
export function cmdClockPlan(command: string, cwd?: string): CmdClockPlan {
  const program = programClock(command, cwd);
  if (program.reads === 'not-reached') return { perClient: false, reach: cmdClockReach(program) };
  try {
    return { perClient: true, preload: clockLibrary(), reach: cmdClockReach(program) };
  } catch (error) {
    if (error instanceof ClockLibraryError) return { perClient: false, reach: cmdClockUnbuilt(error.message) };
    throw error;
  }
}

/** The client processes, started together, and what ends them and their pages. */
export interface ClientProcesses {
  readonly processes: readonly ClientProcess[];
  close(): Promise<void>;
}

/**
 * Start `clients` processes of the program, process c under the preload and page c (its clock true
 * until the runner sets an offset). Each hello says `clients: 1`: the process serves one logical
 * client. A program that misbehaves leaves its session broken, as with one process (findings).
 */
export async function openClientProcesses(
  options: Omit<ProcessSessionOptions, 'clients' | 'env'>,
  clients: number,
  preload: string,
): Promise<ClientProcesses> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-client-clocks-'));
  const pages = Array.from({ length: clients }, (_, c) => ClockPage.create(path.join(dir, `c${c}.clock`)));
  // A preload the user set stays, after ours.
  const preloads = [preload, process.env.LD_PRELOAD].filter(Boolean).join(':');
  const sessions = await Promise.all(
    pages.map((page) =>
      ProcessSession.open({ ...options, clients: 1, env: { LD_PRELOAD: preloads, CHAOSLUA_CLOCK_FILE: page.file } }),
    ),
  );
  return {
    processes: sessions.map((session, c) => ({ session, setClock: (offsetMs) => pages[c].set({ offsetMs }) })),
    async close() {
      await Promise.all(sessions.map((s) => s.close()));
      for (const page of pages) page.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
