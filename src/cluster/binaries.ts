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

/** A quoted, printable rendering of a program's output for a one-line message. */
const quoted = (text: string) => JSON.stringify(text.trim().split('\n').pop()?.slice(0, 200) ?? '');

/** redis-server >= 7: $CHAOSLUA_REDIS_SERVER, else PATH, else installed. */
export function redisServerBinary(): string {
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
  let out: string;
  try {
    out = execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 });
  } catch (error) {
    const e = error as { status?: number | null; signal?: string | null; stderr?: string; code?: string };
    const how = e.code && !e.status ? e.code : e.signal ? `killed by ${e.signal}` : `exit ${e.status}`;
    throw new EnvironmentError(
      `redis-server at ${bin} does not run: \`--version\` failed (${how}${e.stderr?.trim() ? `: ${quoted(e.stderr)}` : ''}); install Redis 7 or later`,
    );
  }
  const version = out.match(/v=(\d+)\.(\d+)\.(\d+)/);
  if (!version || Number(version[1]) < 7) {
    throw new EnvironmentError(
      `redis-server at ${bin} is ${version?.[0] ?? `of unknown version (it answered ${quoted(out)})`}; Redis 7 or later is required`,
    );
  }
  return bin;
}

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
