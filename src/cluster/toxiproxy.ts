import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError } from './errors.ts';
import type { ReapedDir } from './reaper.ts';
import type { ToxicSpec } from './types.ts';
import { sleep } from './wait.ts';

/** Tries of one API call, the pause before the second (tripled each time: 0.2, 0.6, 1.8 s), and
 *  how long one try may take: a transient failure rides out about 2.6 s, a dead server ends the job. */
const API_ATTEMPTS = 4;
const API_BACKOFF_MS = 200;
const API_TIMEOUT_MS = 10_000;

export interface ProxySpec {
  readonly name: string;
  readonly listen: string;
  readonly upstream: string;
}

/** The last line a program wrote to its log (JSON-quoted, at most 300 characters), or why there is none. */
function lastLogLine(file: string): string {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return 'it wrote no log';
  }
  const last = text.trim().split('\n').pop()?.trim();
  return last
    ? `its log ends ${JSON.stringify(last.length > 300 ? `${last.slice(0, 300)}...` : last)}`
    : 'its log is empty';
}

/** How a server this harness started was launched, so that it can be launched again. */
interface Launch {
  readonly binary: string;
  readonly dir: ReapedDir;
  readonly seed: number;
}

/** One Toxiproxy server and a thin client of its HTTP API. */
export class Toxiproxy {
  private toxicCount = 0;
  private proxies: readonly ProxySpec[] = [];
  private constructor(
    readonly apiPort: number,
    private child: ChildProcess,
    private readonly launch?: Launch,
  ) {}

  /** A client of a Toxiproxy server someone else started (the compose backend's container). */
  static attach(apiPort: number, process?: ChildProcess): Toxiproxy {
    return new Toxiproxy(apiPort, process as ChildProcess);
  }

  static async start(binary: string, dir: ReapedDir, apiPort: number, seed: number): Promise<Toxiproxy> {
    const launch = { binary, dir, seed };
    return new Toxiproxy(apiPort, await Toxiproxy.launched(launch, apiPort), launch);
  }

  /** The server's process (undefined for a server attached to, not started). */
  get process(): ChildProcess {
    return this.child;
  }

  /** True when this client started its server, and so can start it again (restart()). */
  get restartable(): boolean {
    return this.launch !== undefined;
  }

  /** False once the server this client started has exited (a server attached to is taken as alive). */
  get alive(): boolean {
    return this.child === undefined || (this.child.exitCode === null && this.child.signalCode === null);
  }

  /** A server process on apiPort, once it answers /version. */
  private static async launched({ binary, dir, seed }: Launch, apiPort: number): Promise<ChildProcess> {
    const log = path.join(dir.dir, 'toxiproxy.log');
    const child = dir.spawn(binary, ['-host', '127.0.0.1', '-port', String(apiPort), '-seed', String(seed)], log);
    const probe = new Toxiproxy(apiPort, child);
    let exited: string | undefined;
    child.once('exit', (code, signal) => (exited = `exited with ${signal ?? code}`));
    child.once('error', (e) => (exited = e.message));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      // The log goes with the cluster's temporary folder: its last line is quoted, not its path.
      if (exited) throw new EnvironmentError(`toxiproxy-server ${binary} ${exited} at start: ${lastLogLine(log)}`);
      // One try per poll: the retries are for a server that was up, not one still starting.
      if ('value' in (await probe.attempt('GET', '/version', undefined))) return child;
      await sleep(20);
    }
    child.kill('SIGKILL');
    throw new EnvironmentError(`toxiproxy-server did not answer on 127.0.0.1:${apiPort} within 10 s`);
  }

  /**
   * Kill the server and start a new one on the same ports with the same proxies, every proxy on and
   * no toxic: what /reset does, for a server that no longer answers it. Every connection through the
   * proxies drops (clients, replication and gossip reconnect). Only for a server this client started.
   */
  async restart(): Promise<void> {
    if (!this.launch) throw new Error('toxiproxy: a server this harness did not start cannot be restarted');
    const old = this.child;
    if (old.exitCode === null && old.signalCode === null) {
      const gone = new Promise((resolve) => old.once('exit', resolve));
      old.kill('SIGKILL');
      await gone;
    }
    this.child = await Toxiproxy.launched(this.launch, this.apiPort);
    await this.createProxies(this.proxies);
  }

  /**
   * One API call, retried when the failure looks transient (the server answered 5xx, did not answer
   * in time, or the connection failed): a loaded Toxiproxy has answered `503 ... Timeout` to a
   * `/reset` mid-job, and one such answer must not end a job. A 4xx is the request's own fault and
   * is not retried, except a 409 on a retry, which means an earlier attempt already took effect.
   */
  private async request(method: string, route: string, body?: unknown): Promise<unknown> {
    let last: Error | undefined;
    for (let attempt = 0; attempt < API_ATTEMPTS; attempt++) {
      if (attempt > 0) await sleep(API_BACKOFF_MS * 3 ** (attempt - 1));
      const answer = await this.attempt(method, route, body);
      if (!('error' in answer)) return answer.value;
      if (answer.status === 409 && attempt > 0) return undefined;
      last = answer.error;
      if (answer.status !== undefined && answer.status < 500) break;
    }
    throw last!;
  }

  private async attempt(
    method: string,
    route: string,
    body: unknown,
  ): Promise<{ value: unknown } | { error: Error; status?: number }> {
    let response: Response;
    try {
      response = await fetch(`http://127.0.0.1:${this.apiPort}${route}`, {
        method,
        headers: body === undefined ? undefined : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(API_TIMEOUT_MS),
      });
    } catch (error) {
      // fetch says only "fetch failed"; the cause names the errno (ECONNREFUSED when the server is gone).
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return {
        error: new Error(
          `toxiproxy ${method} ${route}: ${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`,
        ),
      };
    }
    const text = await response.text();
    if (!response.ok)
      return {
        error: new Error(`toxiproxy ${method} ${route}: ${response.status} ${text.trim()}`),
        status: response.status,
      };
    return { value: text ? JSON.parse(text) : undefined };
  }

  version(): Promise<unknown> {
    return this.request('GET', '/version');
  }

  async createProxies(proxies: readonly ProxySpec[]): Promise<void> {
    this.proxies = [...this.proxies.filter((p) => !proxies.some((q) => q.name === p.name)), ...proxies];
    await this.request(
      'POST',
      '/populate',
      proxies.map((p) => ({ ...p, enabled: true })),
    );
  }

  async addToxic(proxy: string, spec: ToxicSpec): Promise<string> {
    const name = `${spec.type}_${++this.toxicCount}`;
    await this.request('POST', `/proxies/${proxy}/toxics`, {
      name,
      type: spec.type,
      stream: spec.stream ?? 'downstream',
      toxicity: spec.toxicity ?? 1,
      attributes: spec.attributes,
    });
    return name;
  }

  async setEnabled(proxy: string, enabled: boolean): Promise<void> {
    await this.request('POST', `/proxies/${proxy}`, { enabled });
  }

  /** Enable every proxy and remove every toxic. */
  async reset(): Promise<void> {
    await this.request('POST', '/reset');
  }
}
