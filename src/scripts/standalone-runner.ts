import type { Redis } from 'ioredis';
import {
  isNoScript,
  isShebangRefused,
  NoScriptAfterReloadError,
  ScriptDigestMismatchError,
  ScriptLoadError,
} from './errors.ts';
import { scriptFromBody, type ScriptSource } from './source.ts';
import type { ScriptArg, ScriptObserver } from './runner.ts';

const address = (redis: Redis) => `${redis.options.host}:${redis.options.port}`;

/**
 * EVALSHA on one standalone server (one of Redlock's independent masters), with the contract of the
 * cluster runner (./runner.ts): the SHA computed from each body up front, on NOSCRIPT the body loaded
 * on this server and EVALSHA retried exactly once; a `#!lua` first line sent as a comment once the
 * server has refused it (Redis 6.2). No routing: every call goes to the one server.
 */
export class StandaloneScriptRunner {
  private scripts: ReadonlyMap<string, ScriptSource>;
  private shebangsCommented = false;
  fallbacks = 0;

  constructor(
    readonly redis: Redis,
    scripts: Iterable<ScriptSource>,
    private readonly observer: ScriptObserver = {},
  ) {
    this.scripts = new Map([...scripts].map((s) => [s.name, s]));
  }

  /** Load every script, so that a compile error shows before any call. */
  async prepare(): Promise<void> {
    for (const name of this.scripts.keys()) {
      const loaded = await this.load(this.script(name));
      const script = this.script(name);
      if (loaded !== script.sha) throw new ScriptDigestMismatchError(script.origin, script.sha, loaded);
    }
  }

  async call(name: string, key: string, args: readonly ScriptArg[]): Promise<unknown> {
    const started = performance.now();
    try {
      return await this.callOnce(this.script(name), key, args);
    } finally {
      this.observer.onCall?.(name, performance.now() - started);
    }
  }

  private async callOnce(script: ScriptSource, key: string, args: readonly ScriptArg[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(script.sha, 1, key, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
    }
    this.fallbacks++;
    this.observer.onNoScript?.(script.name);
    const loadedSha = await this.load(script);
    try {
      return await this.redis.evalsha(script.sha, 1, key, ...args);
    } catch (error) {
      if (isNoScript(error))
        throw new NoScriptAfterReloadError(script.name, script.sha, loadedSha, [address(this.redis)], { cause: error });
      throw error;
    }
  }

  private async load(script: ScriptSource): Promise<string> {
    try {
      return String(await this.redis.script('LOAD', script.body));
    } catch (error) {
      if (!this.shebangsCommented && isShebangRefused(script, error)) {
        this.shebangsCommented = true;
        this.scripts = new Map(
          [...this.scripts].map(([name, s]) => [
            name,
            s.body.subarray(0, 2).toString() === '#!'
              ? scriptFromBody(s.name, Buffer.concat([Buffer.from('--'), s.body]), s.origin)
              : s,
          ]),
        );
        return this.load(this.script(script.name));
      }
      throw new ScriptLoadError(script.origin, address(this.redis), { cause: error });
    }
  }

  private script(name: string): ScriptSource {
    const script = this.scripts.get(name);
    if (!script) throw new RangeError(`no script named '${name}' (have: ${[...this.scripts.keys()].join(', ')})`);
    return script;
  }
}
