import type { Cluster as IORedisCluster, Redis } from 'ioredis';
import { masterForSlot, masters, nodeAddress } from './cluster-nodes.ts';
import { keySlot } from '../resp/key-slot.ts';
import {
  FunctionNotLoadedError,
  FunctionsUnsupportedError,
  isShebangRefused,
  isUnknownCommand,
  NoScriptAfterReloadError,
  ScriptDigestMismatchError,
  ScriptLoadError,
  isFunctionNotFound,
  isNoScript,
} from './errors.ts';
import { scriptFromBody, type ScriptSource } from './source.ts';

export type ScriptArg = string | number | Buffer;
export type ScriptMode = 'evalsha' | 'fcall';

/** What the caller reports, so metrics stay out of this file. */
export interface ScriptObserver {
  /** One logical call finished (success or error), retries included. */
  onCall?(script: string, ms: number): void;
  /** The script (or function) was missing on the node that served the call; a reload follows. */
  onNoScript?(script: string): void;
}

/** Runs named single-key scripts on a Redis Cluster; routed by KEYS[1]. */
export interface ScriptRunner {
  readonly mode: ScriptMode;
  readonly names: readonly string[];
  /** Load everything on every master, so that compile errors show at start-up, not mid-run. */
  prepare(): Promise<void>;
  call(name: string, key: string, args: readonly ScriptArg[]): Promise<unknown>;
  /** NOSCRIPT (or function-not-found) fallbacks so far. */
  readonly fallbacks: number;
  toString(): string;
}

abstract class TimedRunner {
  fallbacks = 0;
  constructor(protected readonly observer: ScriptObserver) {}

  protected async timed<T>(name: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await run();
    } finally {
      this.observer.onCall?.(name, performance.now() - started);
    }
  }

  protected missed(name: string): void {
    this.fallbacks++;
    this.observer.onNoScript?.(name);
  }
}

/**
 * EVALSHA by the SHA computed from each body up front. On NOSCRIPT the body is loaded on the master
 * that serves the key (the cache is per node, and a keyless SCRIPT LOAD would go to a random node),
 * then EVALSHA is retried exactly once; a second NOSCRIPT raises NoScriptAfterReloadError.
 */
export class EvalshaRunner extends TimedRunner implements ScriptRunner {
  readonly mode = 'evalsha' as const;
  private scripts: ReadonlyMap<string, ScriptSource>;
  /** The server compiled a `#!lua` first line as Lua (Redis 6.2): every such line is sent as a comment since. */
  private shebangsCommented = false;

  constructor(
    private readonly redis: IORedisCluster,
    scripts: Iterable<ScriptSource>,
    observer: ScriptObserver = {},
  ) {
    super(observer);
    this.scripts = new Map([...scripts].map((s) => [s.name, s]));
  }

  get names(): readonly string[] {
    return [...this.scripts.keys()];
  }

  async prepare(): Promise<void> {
    for (const node of await masters(this.redis)) {
      for (const name of this.names) {
        const loaded = await this.load(node, this.script(name));
        // Read again: a load may have turned the script's shebang into a comment (its SHA with it).
        const script = this.script(name);
        if (loaded !== script.sha) throw new ScriptDigestMismatchError(script.origin, script.sha, loaded);
      }
    }
  }

  async call(name: string, key: string, args: readonly ScriptArg[]): Promise<unknown> {
    const script = this.script(name);
    return this.timed(name, () => this.callOnce(script, key, args));
  }

  private async callOnce(script: ScriptSource, key: string, args: readonly ScriptArg[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(script.sha, 1, key, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
    }
    this.missed(script.name);
    const { loadedSha, nodes } = await this.loadForKey(script, key);
    try {
      return await this.redis.evalsha(script.sha, 1, key, ...args);
    } catch (error) {
      if (isNoScript(error))
        throw new NoScriptAfterReloadError(script.name, script.sha, loadedSha, nodes, { cause: error });
      throw error;
    }
  }

  /** Load on the key's master; when the client cannot tell which master that is, on every master. */
  private async loadForKey(script: ScriptSource, key: string): Promise<{ loadedSha: string; nodes: string[] }> {
    const master = masterForSlot(this.redis, keySlot(key));
    const targets = master ? [master] : await masters(this.redis);
    let loadedSha = script.sha;
    for (const node of targets) loadedSha = await this.load(node, script);
    return { loadedSha, nodes: targets.map(nodeAddress) };
  }

  private async load(node: Redis, script: ScriptSource): Promise<string> {
    try {
      return String(await node.script('LOAD', script.body));
    } catch (error) {
      if (this.commentShebangs(script, error)) return this.load(node, this.script(script.name));
      throw new ScriptLoadError(script.origin, nodeAddress(node), { cause: error });
    }
  }

  /**
   * A server without script flags (Redis 6.2) compiles a `#!lua` first line as Lua and fails on the
   * `#`. The line means nothing there (no flags; no replica refuses an EVAL for being a write), so
   * from then on every script's first `#!` line is sent as a Lua comment: line numbers unchanged, the
   * SHA that of the bytes sent (docs/servers.md). Decided by the server's own answer, once.
   */
  private commentShebangs(script: ScriptSource, error: unknown): boolean {
    if (this.shebangsCommented || !isShebangRefused(script, error)) return false;
    this.shebangsCommented = true;
    this.scripts = new Map(
      [...this.scripts].map(([name, s]) => [
        name,
        s.body.subarray(0, 2).toString() === '#!'
          ? scriptFromBody(s.name, Buffer.concat([Buffer.from('--'), s.body]), s.origin)
          : s,
      ]),
    );
    return true;
  }

  private script(name: string): ScriptSource {
    const script = this.scripts.get(name);
    if (!script) throw new RangeError(`no script named '${name}' (have: ${this.names.join(', ')})`);
    return script;
  }

  override toString(): string {
    return `EVALSHA runner (${this.names.join(', ')})`;
  }
}

/**
 * FCALL against a Functions library loaded on every master. Functions replicate and persist with the
 * data, so a miss is rare (e.g. a node restarted empty); it reloads on every master and retries once.
 */
export class FcallRunner extends TimedRunner implements ScriptRunner {
  readonly mode = 'fcall' as const;

  constructor(
    private readonly redis: IORedisCluster,
    private readonly library: ScriptSource,
    /** Script name -> function name in the library, e.g. register_or_get -> idem_register_or_get. */
    private readonly functions: ReadonlyMap<string, string>,
    observer: ScriptObserver = {},
  ) {
    super(observer);
  }

  get names(): readonly string[] {
    return [...this.functions.keys()];
  }

  async prepare(): Promise<void> {
    await Promise.all(
      (await masters(this.redis)).map(async (node) => {
        try {
          await node.call('FUNCTION', 'LOAD', 'REPLACE', this.library.body);
        } catch (error) {
          if (isUnknownCommand(error))
            throw new FunctionsUnsupportedError(this.library.origin, nodeAddress(node), { cause: error });
          throw new ScriptLoadError(this.library.origin, nodeAddress(node), { cause: error });
        }
      }),
    );
  }

  async call(name: string, key: string, args: readonly ScriptArg[]): Promise<unknown> {
    const fn = this.functions.get(name);
    if (!fn) throw new RangeError(`no function for script '${name}' (have: ${this.names.join(', ')})`);
    return this.timed(name, () => this.callOnce(name, fn, key, args));
  }

  private async callOnce(name: string, fn: string, key: string, args: readonly ScriptArg[]): Promise<unknown> {
    try {
      return await this.redis.fcall(fn, 1, key, ...args);
    } catch (error) {
      if (!isFunctionNotFound(error)) throw error;
    }
    this.missed(name);
    await this.prepare();
    try {
      return await this.redis.fcall(fn, 1, key, ...args);
    } catch (error) {
      if (isFunctionNotFound(error)) throw new FunctionNotLoadedError(fn, this.library.origin, { cause: error });
      throw error;
    }
  }

  override toString(): string {
    return `FCALL runner (${this.library.origin}: ${[...this.functions.values()].join(', ')})`;
  }
}
