import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * globalSetup of the real-cluster projects: nothing a test run starts may outlive it. Every cluster
 * the run starts (the shared one, a file's own, a CLI child's) keeps its temp dir under one root
 * (CHAOSLUA_TMPDIR, which src/cluster/reaper.ts honours and the workers inherit); after the workers
 * have exited, any process still running from under that root (a redis-server's --dir, a
 * Toxiproxy's log) is killed and reported as an error, which fails the run.
 */
export default function setup(): () => Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-tests-'));
  process.env.CHAOSLUA_TMPDIR = root;
  // A job a test starts without handing it a cluster (a CLI child included) runs on one, as its
  // verdicts were pinned: the workers and their children inherit this; tests of --clusters ask for more.
  process.env.CHAOSLUA_CLUSTERS ??= '1';
  return async () => {
    const deadline = Date.now() + 10_000;
    let left = survivors(root);
    // The reaper's watchdogs poll every 200 ms: give them a moment before calling it a leak.
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      left = survivors(root);
    }
    for (const { pid } of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
    }
    fs.rmSync(root, { recursive: true, force: true });
    // vitest logs an error thrown here but keeps its exit code: set it too, so the run fails.
    if (left.length > 0) process.exitCode = 1;
    if (left.length > 0)
      throw new Error(
        `processes outlived the test run (killed now): ${left.map((p) => `${p.pid} ${p.what}`).join('; ')}`,
      );
  };
}

/** Processes whose command line or output file lies under `root`. */
function survivors(root: string): { pid: number; what: string }[] {
  const found: { pid: number; what: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      const out = [1, 2].map((fd) => safeReadlink(`/proc/${entry}/fd/${fd}`));
      if (cmdline.includes(root) || out.some((target) => target?.startsWith(root)))
        found.push({ pid: Number(entry), what: cmdline.slice(0, 120) });
    } catch {
      /* exited meanwhile, or not ours to read */
    }
  }
  return found;
}

function safeReadlink(link: string): string | undefined {
  try {
    return fs.readlinkSync(link);
  } catch {
    return undefined;
  }
}
