import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATTERN_NAMES } from '../../src/patterns/index.ts';

// The package a team installs, as a team gets it: `npm pack`, installed into an empty folder with its own
// package.json, then `npx chaoslua certify --impl module:./store.mjs` and `npx chaoslua check` there,
// with the TypeScript loader (tsx) moved out of the way to prove the package runs compiled JavaScript.
// Toxiproxy is off PATH and not configured, so certify installs it as the bootstrap would
// (scripts/install-tools.sh into the package's .tools/bin); redis-server is found on PATH.

const ROOT = path.resolve(import.meta.dirname, '../..');
const team = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-package-'));
afterAll(() => fs.rmSync(team, { recursive: true, force: true }));

/** PATH without any folder holding a toxiproxy-server, and no CHAOSLUA_* override. */
function teamEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('CHAOSLUA_') && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS',
    ),
  );
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((d) => d && !fs.existsSync(path.join(d, 'toxiproxy-server')))
    .join(path.delimiter);
  return env;
}

function sh(
  command: string,
  args: string[],
  options: { cwd?: string; timeout?: number } = {},
): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd: options.cwd ?? team,
    env: teamEnv(),
    encoding: 'utf8',
    timeout: options.timeout ?? 300_000,
  });
}
const said = (r: SpawnSyncReturns<string>) => `exit ${r.status}\n${r.stdout}\n${r.stderr}`;

// A team's lock, written against the module: contract (docs/module-contract.md).
const STORE = `const ACQUIRE = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', tonumber(ARGV[2])) then return 1 end return 0";
const RELEASE = "if redis.call('EXISTS', KEYS[1]) == 0 then return nil end if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end return redis.call('DEL', KEYS[1])";
const EXTEND = "if redis.call('EXISTS', KEYS[1]) == 0 then return nil end if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end return redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))";
export function createStore(redis) {
  return {
    acquire: (key, token, ttlMs) => redis.eval(ACQUIRE, 1, key, token, ttlMs),
    release: (key, token) => redis.eval(RELEASE, 1, key, token),
    extend: (key, token, ttlMs) => redis.eval(EXTEND, 1, key, token, ttlMs),
  };
}
`;

const HISTORY =
  '; a register, written by Jepsen\n{:process 0, :type :invoke, :f :write, :value 1}\n{:process 0, :type :ok, :f :write, :value 1}\n{:process 1, :type :invoke, :f :read, :value nil}\n{:process 1, :type :ok, :f :read, :value 2}\n';

beforeAll(() => {
  const packed = sh('npm', ['pack', '--silent', '--pack-destination', team], { cwd: ROOT });
  expect(packed.status, said(packed)).toBe(0);
  const tarball = packed.stdout.trim().split('\n').pop()!;
  fs.writeFileSync(
    path.join(team, 'package.json'),
    JSON.stringify({ name: 'team-store', version: '1.0.0', private: true, type: 'module' }),
  );
  const installed = sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`]);
  expect(installed.status, said(installed)).toBe(0);
  // No TypeScript loader at run time: the package must work without tsx (kept only for a team's .ts modules).
  fs.renameSync(path.join(team, 'node_modules/tsx'), path.join(team, 'tsx.away'));
  fs.writeFileSync(path.join(team, 'store.mjs'), STORE);
  fs.writeFileSync(path.join(team, 'history.edn'), HISTORY);
}, 600_000);

describe('the installed package', () => {
  it('ships compiled JavaScript, the runtime files and the docs, and no TypeScript sources', () => {
    const pkg = path.join(team, 'node_modules/chaoslua');
    expect(fs.existsSync(path.join(pkg, 'dist/src/cli/main.js'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'dist/src/index.d.ts'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'dist/lua/lock/acquire.lua'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'dist/scripts/install-tools.sh'))).toBe(true);
    // The clock preload ships as source, built with the C compiler where the clock faults are first asked for.
    expect(fs.existsSync(path.join(pkg, 'dist/native/clockshift.c'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'docs/commands/certify.md'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'src'))).toBe(false);
  });

  it('npx chaoslua check judges a Jepsen history (format detected past its comment), and --help points into the package', () => {
    const r = sh('npx', ['chaoslua', 'check', 'history.edn', '--model', 'register', '--no-report']);
    expect(r.stdout, said(r)).toMatch(/check of history\.edn \(jepsen, model register\): illegal/);
    expect(r.status).toBe(1);
    const help = sh('npx', ['chaoslua', 'check', '--help']);
    expect(help.stdout).toContain(
      `more: ${path.join(fs.realpathSync(team), 'node_modules/chaoslua/docs/commands/check.md')}`,
    );
  });

  it('the library imports as compiled JavaScript, with its types', () => {
    const r = sh('node', [
      '--input-type=module',
      '-e',
      "const m = await import('chaoslua'); console.log(typeof m.check, typeof m.runJob, m.PATTERN_NAMES.join(','))",
    ]);
    expect(r.stdout.trim(), said(r)).toBe(`function function ${PATTERN_NAMES.join(',')}`);
  });

  it('npx chaoslua certify --impl module:./store.mjs installs Toxiproxy as the bootstrap does, and certifies', {
    timeout: 900_000,
  }, () => {
    const r = sh(
      'npx',
      [
        'chaoslua',
        'certify',
        '--impl',
        'module:./store.mjs',
        '--pattern',
        'lock',
        '--runs',
        '4',
        '--seed',
        '3',
        '--no-corpus',
      ],
      { timeout: 900_000 },
    );
    expect(r.stderr, said(r)).toMatch(/^chaoslua: toxiproxy-server not found; installing it/m);
    expect(r.stdout, said(r)).toMatch(/^chaoslua certify: PASSED — lock, module:\S+store\.mjs/m);
    expect(r.status).toBe(0);
    const [run] = fs.readdirSync(path.join(team, 'reports')).filter((d) => d.includes('certify'));
    const certificate = JSON.parse(fs.readFileSync(path.join(team, 'reports', run, 'certificate.json'), 'utf8'));
    expect(certificate).toMatchObject({ certified: true, pattern: 'lock', runs: 4 });
    // Installed once: the next job finds it.
    const again = sh(
      'npx',
      [
        'chaoslua',
        'certify',
        '--impl',
        'module:./store.mjs',
        '--pattern',
        'lock',
        '--runs',
        '1',
        '--seed',
        '3',
        '--no-corpus',
        '--faults',
        'none',
      ],
      { timeout: 600_000 },
    );
    expect(again.stderr, said(again)).not.toMatch(/installing/);
  });
});
