import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EnvironmentError } from './errors.ts';

/** The folder the runtime files sit in: the checkout, or the package's dist/ (a mirror of it). */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** scripts/install-tools.sh: the same installer, and the same one-line guidance, as the bootstrap. */
export const INSTALLER = path.join(projectRoot, 'scripts', 'install-tools.sh');
export const TOOLS_BIN = path.join(projectRoot, '.tools', 'bin');

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A missing program installed by scripts/install-tools.sh (what the bootstrap runs): its progress
 * on our standard error, and its one line of guidance as the error when it cannot. Not with
 * CHAOSLUA_NO_INSTALL=1, nor where the installer is not shipped.
 */
function install(what: 'redis' | 'toxiproxy', missing: string): void {
  const guidance = `run \`npx chaoslua install\` (or set ${what === 'redis' ? 'CHAOSLUA_REDIS_SERVER' : 'CHAOSLUA_TOXIPROXY'})`;
  if (process.env.CHAOSLUA_NO_INSTALL === '1' || !fs.existsSync(INSTALLER))
    throw new EnvironmentError(`${missing}: ${guidance}`);
  process.stderr.write(`chaoslua: ${missing}; installing it (scripts/install-tools.sh --${what})\n`);
  const r = spawnSync('bash', [INSTALLER, `--${what}`, '--into', TOOLS_BIN], {
    stdio: ['ignore', 2, 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new EnvironmentError(r.stderr?.trim().split('\n').pop() || `${missing}: ${guidance}`);
}

/** What a binary says of itself with `--version`: enough to start it right, not what a certificate names (that is probed from the running node). */
export interface BinaryVersion {
  readonly server: 'redis' | 'valkey';
  readonly version: string;
  readonly major: number;
  readonly minor: number;
}

/** `Redis server v=7.0.15 sha=...` or `Valkey server v=8.1.8 sha=...`; undefined for anything else. */
export function parseVersionLine(text: string): BinaryVersion | undefined {
  const m = text.match(/\b(Redis|Valkey) server v=(\d+)\.(\d+)\.(\d+)/i);
  if (!m) return undefined;
  return {
    server: m[1].toLowerCase() as 'redis' | 'valkey',
    version: `${m[2]}.${m[3]}.${m[4]}`,
    major: Number(m[2]),
    minor: Number(m[3]),
  };
}

/**
 * `--version` of a binary, the one place it is run: its parsed line, or why it does not answer one
 * (`ran`: it answered, with something that is no Redis or Valkey server's line).
 */
export function binaryVersion(bin: string): BinaryVersion | { readonly problem: string; readonly ran: boolean } {
  let out: string;
  try {
    out = execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 });
  } catch (error) {
    const e = error as { status?: number | null; signal?: string | null; stderr?: string; code?: string };
    const how = e.code && !e.status ? e.code : e.signal ? `killed by ${e.signal}` : `exit ${e.status}`;
    const said = e.stderr?.trim().split('\n').pop()?.slice(0, 200);
    return { problem: `\`--version\` failed (${how}${said ? `: ${JSON.stringify(said)}` : ''})`, ran: false };
  }
  return (
    parseVersionLine(out) ?? {
      problem: `\`--version\` answered ${JSON.stringify(out.trim().split('\n')[0]?.slice(0, 120) ?? '')}, not a Redis or Valkey server's line`,
      ran: true,
    }
  );
}

/** The oldest server a cluster of the harness can run on (6.2: no cluster-port; the local backend copes). */
const OLDEST = { major: 6, minor: 2 };

/** Why a server is too old for a cluster here, in words after its name; undefined when it is not. */
export function tooOld(v: BinaryVersion): string | undefined {
  if (v.major > OLDEST.major || (v.major === OLDEST.major && v.minor >= OLDEST.minor)) return undefined;
  return `${v.server} ${v.version} is older than ${OLDEST.major}.${OLDEST.minor}, the oldest a cluster here runs on`;
}

/**
 * The default redis-server and its `--version`: $CHAOSLUA_REDIS_SERVER, else PATH, else installed;
 * 6.2 or later, as `--server` asks of a path. One that does not run or is too old is the environment (exit 3).
 */
export function redisServer(): { readonly binary: string; readonly version: BinaryVersion } {
  const fromEnv = process.env.CHAOSLUA_REDIS_SERVER;
  let bin = fromEnv ?? onPath('redis-server');
  if (fromEnv === undefined && !bin) {
    install('redis', 'redis-server not found');
    bin = onPath('redis-server');
  }
  if (!bin || !fs.existsSync(bin)) {
    throw new EnvironmentError(
      `redis-server not found${fromEnv === undefined ? '' : ` at CHAOSLUA_REDIS_SERVER=${fromEnv}`}: run \`npx chaoslua install\` (or set CHAOSLUA_REDIS_SERVER)`,
    );
  }
  // A binary that does not run (a missing library, the wrong architecture) is the environment, exit 3.
  const version = binaryVersion(bin);
  if ('problem' in version)
    throw new EnvironmentError(
      `redis-server at ${bin} ${version.ran ? 'is of unknown version' : 'does not run'}: ${version.problem}; install Redis 6.2 or later`,
    );
  const old = tooOld(version);
  if (old) throw new EnvironmentError(`redis-server at ${bin}: ${old}`);
  return { binary: bin, version };
}

/** The default redis-server's path (./redisServer). */
export const redisServerBinary = (): string => redisServer().binary;

/** Toxiproxy server: $CHAOSLUA_TOXIPROXY, else the installer's .tools/bin, else PATH, else installed. */
export function toxiproxyBinary(): string {
  const fromEnv = process.env.CHAOSLUA_TOXIPROXY;
  const find = () =>
    [path.join(TOOLS_BIN, 'toxiproxy-server'), onPath('toxiproxy-server')].find(
      (p): p is string => !!p && fs.existsSync(p),
    );
  let bin = fromEnv ?? find();
  if (fromEnv === undefined && !bin) {
    install('toxiproxy', 'toxiproxy-server not found');
    bin = find();
  }
  if (!bin || !fs.existsSync(bin)) {
    throw new EnvironmentError(
      `toxiproxy-server not found${fromEnv === undefined ? '' : ` at CHAOSLUA_TOXIPROXY=${fromEnv}`}: run \`npx chaoslua install\` (or set CHAOSLUA_TOXIPROXY)`,
    );
  }
  return bin;
}
