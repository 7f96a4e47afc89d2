import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { EnvironmentError } from './errors.ts';
import type { ReapedDir } from './reaper.ts';
import type { ToxicSpec } from './types.ts';
import { sleep } from './wait.ts';

export interface ProxySpec {
  readonly name: string;
  readonly listen: string;
  readonly upstream: string;
}

/** One Toxiproxy server and a thin client of its HTTP API. */
export class Toxiproxy {
  private toxicCount = 0;
  private constructor(
    readonly apiPort: number,
    readonly process: ChildProcess,
  ) {}

  /** A client of a Toxiproxy server someone else started (the compose backend's container). */
  static attach(apiPort: number, process?: ChildProcess): Toxiproxy {
    return new Toxiproxy(apiPort, process as ChildProcess);
  }

  static async start(binary: string, dir: ReapedDir, apiPort: number, seed: number): Promise<Toxiproxy> {
    const child = dir.spawn(
      binary,
      ['-host', '127.0.0.1', '-port', String(apiPort), '-seed', String(seed)],
      path.join(dir.dir, 'toxiproxy.log'),
    );
    const proxy = new Toxiproxy(apiPort, child);
    let exited: string | undefined;
    child.once('exit', (code, signal) => (exited = `exited with ${signal ?? code}`));
    child.once('error', (e) => (exited = e.message));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (exited) throw new EnvironmentError(`toxiproxy-server ${exited} (log: ${path.join(dir.dir, 'toxiproxy.log')})`);
      if (await proxy.version().catch(() => undefined)) return proxy;
      await sleep(20);
    }
    throw new EnvironmentError(`toxiproxy-server did not answer on 127.0.0.1:${apiPort} within 10 s`);
  }

  private async request(method: string, route: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`http://127.0.0.1:${this.apiPort}${route}`, {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`toxiproxy ${method} ${route}: ${response.status} ${text.trim()}`);
    return text ? JSON.parse(text) : undefined;
  }

  version(): Promise<unknown> {
    return this.request('GET', '/version');
  }

  async createProxies(proxies: readonly ProxySpec[]): Promise<void> {
    await this.request('POST', '/populate', proxies.map((p) => ({ ...p, enabled: true })));
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
