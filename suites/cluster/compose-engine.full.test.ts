import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The compose backend for real, on a machine with no Docker engine and no registry: the project's
// script starts a private engine (Debian's dockerd), builds the images from the packaged servers,
// and `certify --cluster compose` runs docker-compose.cluster.yml on it as written. Afterwards
// nothing is left: no container or network (while the engine still runs), then no dockerd,
// containerd or shim, no cgroup, mount or bridge of the engine, after a normal end and after the
// script is killed outright. About 75 s.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/docker-engine.sh');
const BIN = path.join(ROOT, 'bin/chaoslua.mjs');
const PLUGIN = path.join(
  process.env.CHAOSLUA_DOCKER_CONFIG ?? path.join(ROOT, '.tools/docker'),
  'cli-plugins/docker-compose',
);

function missing(): string | undefined {
  if (process.getuid?.() !== 0) return 'dockerd needs root';
  const has = (cmd: string) => {
    try {
      execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (!has('dockerd') || !has('docker')) return 'dockerd or docker is missing (scripts/bootstrap.sh --docker)';
  if (!fs.existsSync(PLUGIN)) return `no compose plugin at ${PLUGIN} (scripts/bootstrap.sh --docker)`;
  return undefined;
}
const absent = missing();
// CI installs the engine through the bootstrap (.ci/run passes --docker): there, a missing part is a
// failure of the file, not a skip; elsewhere the skip is visible in each test's title.
if (absent && process.env.CI) throw new Error(`compose engine: ${absent}, and CI must run these tests`);
const skip = absent;
if (skip) console.warn(`compose engine tests skipped: ${skip}`);
const title = (what: string) => (skip ? `${what} [skipped: ${skip}]` : what);

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The engine's folder, from the script's line naming its socket. */
  dir: string;
}

/** `docker-engine.sh run -- sh -c SCRIPT`, killed with SIGKILL as soon as `killWhen` holds of its output. */
function runWithEngine(shell: string, killWhen?: (stdout: string) => boolean): Promise<Ran> {
  const child = spawn('setpriv', ['--pdeathsig', 'SIGKILL', '--', 'bash', SCRIPT, 'run', '--', 'sh', '-c', shell], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (killWhen?.(stdout)) child.kill('SIGKILL');
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({ code, stdout, stderr, dir: /engine at unix:\/\/(\S+)\/docker\.sock/.exec(stdout)?.[1] ?? '' }),
    ),
  );
}

/** Bridges named as Docker names a user-defined network's (br- and 12 hex digits). */
const bridges = () => fs.readdirSync('/sys/class/net').filter((n) => /^br-[0-9a-f]{12}$/.test(n));

/** What an engine in `dir` left on the host, polled until nothing is or 10 s pass. */
async function leftBy(dir: string, bridgesBefore: string[]): Promise<string[]> {
  const cgroup = `chaoslua-docker-${path.basename(dir).replace(/^chaoslua-docker-/, '')}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const left: string[] = [];
    for (const pid of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
      try {
        const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        if (cmd.includes(`${dir}/`)) left.push(`process ${pid} ${cmd.slice(0, 80)}`);
      } catch {
        /* gone meanwhile */
      }
    }
    // cgroup v1: one tree per controller; v2: one tree.
    for (const c of ['', ...fs.readdirSync('/sys/fs/cgroup')])
      if (fs.existsSync(path.join('/sys/fs/cgroup', c, cgroup))) left.push(`cgroup ${path.join(c, cgroup)}`);
    for (const line of fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n'))
      if (line.split(' ')[4]?.startsWith(dir)) left.push(`mount ${line.split(' ')[4]}`);
    for (const b of bridges()) if (!bridgesBefore.includes(b)) left.push(`bridge ${b}`);
    if (fs.existsSync(dir)) left.push(`folder ${dir}`);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the compose backend on a private Docker engine', () => {
  it.skipIf(!!skip)(
    title('certifies the reference idempotency store and lock on images built here, and leaves nothing'),
    async () => {
      const before = bridges();
      const certify = (pattern: string, runs: number) =>
        `node ${BIN} certify --pattern ${pattern} --impl lua:lua/${pattern} --cluster compose --runs ${runs} --seed 7 --no-corpus --clusters 1 --report "$REPORTS/${pattern}"`;
      const reports = fs.mkdtempSync(path.join(process.env.CHAOSLUA_TMPDIR ?? '/tmp', 'compose-reports-'));
      const r = await runWithEngine(
        [
          `export REPORTS=${reports}`,
          certify('idempotency', 4),
          certify('lock', 3),
          // What certify left on the engine, asked while it still runs: containers (any state) and networks.
          'echo "containers=$(docker ps -aq | wc -l) networks=$(docker network ls -q --filter type=custom | wc -l)"',
        ].join(' && '),
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('containers=0 networks=0');
      for (const pattern of ['idempotency', 'lock']) {
        const [run] = fs.readdirSync(path.join(reports, pattern));
        const cert = JSON.parse(fs.readFileSync(path.join(reports, pattern, run, 'certificate.json'), 'utf8'));
        expect(cert.certified, `${pattern}: ${JSON.stringify(cert).slice(0, 300)}`).toBe(true);
        expect(cert.redis.cluster).toBe('compose');
        // The image the engine ran names the packaged server's version, which the node itself reports.
        expect(cert.redis.image).toBe(`chaoslua-local/${cert.redis.server}:${cert.redis.version}`);
        expect(Object.keys(cert.faults).length, JSON.stringify(cert.faults)).toBeGreaterThan(2);
      }
      fs.rmSync(reports, { recursive: true, force: true });
      expect(r.dir).not.toBe('');
      expect(await leftBy(r.dir, before)).toEqual([]);
    },
  );

  it.skipIf(!!skip)(title('leaves nothing when its script is killed outright with the cluster up'), async () => {
    const before = bridges();
    const r = await runWithEngine(
      'docker compose -p killed -f docker-compose.cluster.yml up -d --quiet-pull >/dev/null 2>&1 && echo "up $(docker ps -q | wc -l)" && sleep 600',
      (out) => /up \d+/.test(out),
    );
    expect(r.stdout).toMatch(/up [1-9]/);
    expect(r.code).toBe(null);
    expect(await leftBy(r.dir, before)).toEqual([]);
  });
});
