/**
 * Redlock over the reference lock scripts (lua/lock), on N independent masters, as its description
 * gives it: acquire runs acquire.lua on every master with one token and TTL; the lock is held when a
 * majority answered 1 and time is left of it, its validity being the TTL less the time the round
 * took and a drift allowance (1% of the TTL + 2 ms, for the masters' clocks running at different
 * rates); otherwise the attempt is undone on every master. Release and extend run their script on
 * every master and succeed on a majority. Each master is given a timeout small against the TTL, so
 * one master that hangs does not hold the round past the lease.
 *
 * Redlock's safety rests on its stated assumption: the masters' clocks run at about the same rate
 * (bounded drift). A master whose clock jumps expires its copy early, and two clients may then each
 * count a majority: docs/redlock.md.
 */
import type { StandaloneScriptRunner } from '../../pattern.ts';

/** One master's answer to one round: its reply, or why it gave none in time. */
export type Vote = { readonly reply: unknown } | { readonly error: string };

export interface RedlockSettings {
  /** The clock drift allowed for, as a share of the TTL. Default 0.01, Redlock's. */
  readonly driftFactor: number;
  /** How long a round waits for one master, ms, from the TTL. Default: half of it, at least 50 ms. */
  readonly masterTimeoutMs: (ttlMs: number) => number;
  /** How long a release waits for one master, ms (a release names no TTL). Default 250. */
  readonly releaseTimeoutMs: number;
}

export const REDLOCK_DEFAULTS: RedlockSettings = {
  driftFactor: 0.01,
  masterTimeoutMs: (ttlMs) => Math.max(50, Math.round(ttlMs / 2)),
  releaseTimeoutMs: 250,
};

/** How an acquire ended: held (with the validity left), refused by every master, or undone everywhere (and why). */
export type AcquireResult =
  | { readonly kind: 'held'; readonly validityMs: number; readonly votes: readonly Vote[] }
  | { readonly kind: 'refused'; readonly votes: readonly Vote[] }
  | { readonly kind: 'gave-back'; readonly why: string; readonly votes: readonly Vote[] };

/** What a majority of masters answered a release or extend (a script's reply), or that no answer had a majority. */
export type MajorityResult =
  | { readonly kind: 'agreed'; readonly reply: 1 | -1 | 0 | null }
  | { readonly kind: 'split'; readonly votes: readonly Vote[] };

const timedOut = (ms: number) => ({ error: `no answer within ${ms} ms` });

/** A call's answer as a vote, never rejecting: a reply, an error, or nothing within `ms` (the call may still land later). */
function vote(call: Promise<unknown>, ms: number): Promise<Vote> {
  let timer: NodeJS.Timeout | undefined;
  const answered = call.then(
    (reply): Vote => ({ reply }),
    (error: unknown): Vote => ({ error: error instanceof Error ? error.message.split('\n')[0] : String(error) }),
  );
  const late = new Promise<Vote>((resolve) => (timer = setTimeout(() => resolve(timedOut(ms)), ms)));
  return Promise.race([answered, late]).finally(() => clearTimeout(timer));
}

const replyOf = (v: Vote): unknown => ('reply' in v ? v.reply : undefined);

/** "3 x 1, 1 x 0, 1 x error (no answer within 125 ms)" */
export function describeVotes(votes: readonly Vote[]): string {
  const counts = new Map<string, number>();
  for (const v of votes) {
    const text = 'reply' in v ? String(v.reply) : `error (${v.error})`;
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return [...counts].map(([text, n]) => `${n} x ${text}`).join(', ');
}

export class Redlock {
  readonly quorum: number;

  constructor(
    readonly masters: readonly StandaloneScriptRunner[],
    readonly settings: RedlockSettings = REDLOCK_DEFAULTS,
  ) {
    this.quorum = Math.floor(masters.length / 2) + 1;
  }

  private round(script: string, key: string, args: readonly (string | number)[], ms: number): Promise<Vote[]> {
    return Promise.all(this.masters.map((m) => vote(m.call(script, key, args), ms)));
  }

  async acquire(key: string, token: string, ttlMs: number): Promise<AcquireResult> {
    const wait = this.settings.masterTimeoutMs(ttlMs);
    const started = performance.now();
    const votes = await this.round('acquire', key, [token, ttlMs], wait);
    const drift = Math.round(ttlMs * this.settings.driftFactor) + 2;
    const validityMs = ttlMs - (performance.now() - started) - drift;
    const taken = votes.filter((v) => replyOf(v) === 1).length;
    if (taken >= this.quorum && validityMs > 0) return { kind: 'held', validityMs, votes };
    // Every master answered that the key is there: nothing was written, nothing to undo.
    if (votes.every((v) => replyOf(v) === 0)) return { kind: 'refused', votes };
    await this.round('remove_if_matches', key, [token], wait);
    const why =
      taken >= this.quorum
        ? `the round took longer than the lock's validity (${Math.round(validityMs)} ms left)`
        : `${taken} of ${this.masters.length} masters taken, quorum ${this.quorum}`;
    return { kind: 'gave-back', why, votes };
  }

  release(key: string, token: string): Promise<MajorityResult> {
    return this.majority('remove_if_matches', key, [token], this.settings.releaseTimeoutMs);
  }

  extend(key: string, token: string, ttlMs: number): Promise<MajorityResult> {
    return this.majority('extend_if_matches', key, [token, ttlMs], this.settings.masterTimeoutMs(ttlMs));
  }

  /** The reply a majority of masters gave, or `split` when none did (the masters then disagree on the lock). */
  private async majority(
    script: string,
    key: string,
    args: readonly (string | number)[],
    ms: number,
  ): Promise<MajorityResult> {
    const votes = await this.round(script, key, args, ms);
    for (const reply of [1, -1, null, 0] as const) {
      if (votes.filter((v) => 'reply' in v && v.reply === reply).length >= this.quorum)
        return { kind: 'agreed', reply };
    }
    return { kind: 'split', votes };
  }
}
