import type { Cluster as IORedisCluster } from 'ioredis';
import { masters } from '../../src/scripts/cluster-nodes.ts';
import type { ScriptSource } from '../../src/scripts/source.ts';
import type { ScriptArg, ScriptObserver, ScriptRunner } from '../../src/scripts/runner.ts';

/**
 * BROKEN client: SCRIPT LOAD on every master at start-up, then EVALSHA only. The script cache is
 * not replicated or persisted, so after a failover, a restart or SCRIPT FLUSH every call on that
 * node answers NOSCRIPT until the process is restarted (prepare() runs again). It never reports a
 * fallback: idempotency_noscript_total stays 0 while the errors pile up.
 */
export class NoFallbackRunner implements ScriptRunner {
  readonly mode = 'evalsha' as const;
  readonly fallbacks = 0;
  private readonly scripts: ReadonlyMap<string, ScriptSource>;

  constructor(
    private readonly redis: IORedisCluster,
    scripts: Iterable<ScriptSource>,
    private readonly observer: ScriptObserver = {},
  ) {
    this.scripts = new Map([...scripts].map((s) => [s.name, s]));
  }

  get names(): readonly string[] {
    return [...this.scripts.keys()];
  }

  async prepare(): Promise<void> {
    for (const node of await masters(this.redis))
      for (const script of this.scripts.values()) await node.script('LOAD', script.body);
  }

  async call(name: string, key: string, args: readonly ScriptArg[]): Promise<unknown> {
    const script = this.scripts.get(name);
    if (!script) throw new RangeError(`no script named '${name}'`);
    const started = performance.now();
    try {
      return await this.redis.evalsha(script.sha, 1, key, ...args);
    } finally {
      this.observer.onCall?.(name, performance.now() - started);
    }
  }

  toString(): string {
    return `EVALSHA without NOSCRIPT fallback (${this.names.join(', ')})`;
  }
}
