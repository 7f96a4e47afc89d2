import type { Redis } from 'ioredis';
import {
  ScriptMetrics,
  loadScriptDir,
  StandaloneScriptRunner,
  type ReferenceSubject,
  type Receipt,
} from '../../pattern.ts';
import { LOCK_SCRIPTS } from './client.ts';
import type { LockInput } from './model.ts';
import { describeVotes, Redlock, REDLOCK_DEFAULTS, type RedlockSettings } from './redlock.ts';

/**
 * The reference Redlock client as a Subject: the lua: door's client on independent masters. Its
 * answers are the lock model's exact ones where the masters agree: acquire 1 when held, 0 when every
 * master refused; release and extend the reply a majority gave. Otherwise the answer is not known:
 *  - an acquire undone on every master (too few masters, or too late) answers false having maybe
 *    taken the lock and given it back inside the call: recorded as the pattern's give-back (the
 *    acquire and its release both indeterminate), as a library declaring `givesBack` is;
 *  - a release or extend on which no answer had a majority is indeterminate.
 */
export class RedlockSubject implements ReferenceSubject<LockInput, unknown> {
  private constructor(
    readonly name: string,
    private readonly redlock: Redlock,
    private readonly clients: readonly Redis[],
    private readonly keyOf: (logicalKey: string) => string,
    private readonly quitOnClose: boolean,
    private readonly metrics: ScriptMetrics,
  ) {}

  /** Load the scripts on every master (a compile error shows here), then answer through Redlock. */
  static async open(
    masters: readonly Redis[],
    options: {
      scriptsDir: string;
      name: string;
      keyOf: (logicalKey: string) => string;
      quitOnClose: boolean;
      settings?: RedlockSettings;
    },
  ): Promise<RedlockSubject> {
    const scripts = loadScriptDir(options.scriptsDir, LOCK_SCRIPTS);
    const metrics = new ScriptMetrics('lock');
    const runners = masters.map((redis) => new StandaloneScriptRunner(redis, scripts.values(), metrics.observer()));
    await Promise.all(runners.map((r) => r.prepare()));
    return new RedlockSubject(
      options.name,
      new Redlock(runners, options.settings ?? REDLOCK_DEFAULTS),
      masters,
      options.keyOf,
      options.quitOnClose,
      metrics,
    );
  }

  redisKey(logicalKey: string): string {
    return this.keyOf(logicalKey);
  }

  async invoke(logicalKey: string, input: LockInput, receipt?: Receipt): Promise<unknown> {
    const key = this.redisKey(logicalKey);
    switch (input.op) {
      case 'acquire': {
        const result = await this.redlock.acquire(key, input.token, input.ttlMs);
        if (result.kind === 'held') return 1;
        if (result.kind === 'refused') return 0;
        if (receipt)
          (receipt.alsoDid ??= []).push({
            input: { op: 'release', token: input.token },
            error: 'release inside the acquire call that gave back',
          });
        throw new Error(`redlock gave back: ${result.why} (${describeVotes(result.votes)})`);
      }
      case 'release':
        return this.agreed('release', await this.redlock.release(key, input.token));
      case 'extend':
        return this.agreed('extend', await this.redlock.extend(key, input.token, input.ttlMs));
    }
  }

  private agreed(op: string, result: Awaited<ReturnType<Redlock['release']>>): unknown {
    if (result.kind === 'agreed') return result.reply;
    throw new Error(
      `redlock ${op}: no answer had a majority of ${this.redlock.masters.length} masters (${describeVotes(result.votes)})`,
    );
  }

  metricsText(): Promise<string> {
    return this.metrics.text();
  }

  async close(): Promise<void> {
    if (this.quitOnClose) await Promise.all(this.clients.map((c) => c.quit().catch(() => c.disconnect())));
  }

  toString(): string {
    return this.name;
  }
}
