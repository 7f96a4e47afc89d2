import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError } from '../errors.ts';

/**
 * The host tools the netns backend drives: iproute2's `ip` (namespaces, veth pairs, a bridge) and
 * `nft` (partition rules inside each node's namespace). Root is required; where any of it is
 * missing, one line says what, and the CLI exits 3.
 */
export interface NetnsTools {
  readonly ip: string;
  readonly nft: string;
  readonly tc: string;
}

function onPath(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/sbin'];
  return dirs.map((d) => path.join(d, name)).find((p) => fs.existsSync(p));
}

/** The tools, or an EnvironmentError naming the first thing missing. */
export function netnsTools(): NetnsTools {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new EnvironmentError(
      '--cluster netns needs root (it creates network namespaces, veth pairs and nftables rules); run as root or use --cluster local',
    );
  }
  const ip = onPath('ip');
  if (!ip) throw new EnvironmentError("--cluster netns needs iproute2's `ip` (apt-get install iproute2)");
  const nft = onPath('nft');
  if (!nft) throw new EnvironmentError('--cluster netns needs `nft` (apt-get install nftables)');
  const tc = onPath('tc');
  if (!tc) throw new EnvironmentError("--cluster netns needs iproute2's `tc` (apt-get install iproute2)");
  return { ip, nft, tc };
}

/** Why this host cannot run the netns backend, or undefined when it can (for tests to skip with). */
export function netnsUnavailable(): string | undefined {
  try {
    netnsTools();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Run a command, synchronously; throws with its stderr. */
export function runSync(file: string, args: readonly string[], input?: string): string {
  try {
    return execFileSync(file, args, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`${path.basename(file)} ${args.join(' ')}: ${stderr || (error as Error).message}`);
  }
}

/** Run a command without blocking the event loop (faults fire while clients run). */
export function run(file: string, args: readonly string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${path.basename(file)} ${args.join(' ')}: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}
