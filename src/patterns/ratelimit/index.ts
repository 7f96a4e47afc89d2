/** The fixed-window rate limiter (lua/ratelimit): a hit is allowed while the window's count is under the limit. */
import { withLevels, type Pattern } from '../../pattern.ts';
import { LIMITER_SCRIPTS, LimiterClient, type LimiterVariant } from './client.ts';
import { classifyRateLimit } from './invariants.ts';
import { ratelimitLevels } from './levels.ts';
import { ratelimit as model, type RateLimitInput, type RateLimitOutput, type RateLimitState } from './model.ts';
import { ratelimitSession } from './sessions.ts';
import { ratelimitSettings } from './settings.ts';
import { RateLimitSubject } from './subject.ts';
import { ratelimitRaces } from './races.ts';

const redisKey = (namespace: string, logicalKey: string) => `ratelimit:{${namespace}:${logicalKey}}`;

export const ratelimit = {
  name: 'ratelimit',
  operations: {
    hit: { args: { limit: 'integer>=0', windowSeconds: 'integer>=1' }, method: 'hit', answer: '1 allowed | 0 blocked' },
  },
  model: withLevels(model, ratelimitLevels),
  levels: ratelimitLevels,
  settings: ratelimitSettings,
  session: (ctx) => ratelimitSession(ctx),
  races: ratelimitRaces,
  invariants: ['limit-respected', 'counter-has-ttl', 'model-conformance'],
  witnesses: { 'limit-respected': ['hit'], 'counter-has-ttl': ['hit'] },
  classify: classifyRateLimit,
  classifyPriority: ['limit-respected'],
  noTtl: { invariant: 'counter-has-ttl', consequence: 'blocks its window forever' },
  transitions: ['absent → window by hit', 'window → window by hit', 'window → absent by expiry'],
  requiredTransitions: [
    { transition: 'absent → window by hit', needs: ['hit'] },
    { transition: 'window → window by hit', needs: ['hit'] },
    { transition: 'window → absent by expiry', needsAnyOf: ['lease-expiry'], needs: ['hit'] },
  ],
  // A hit that ran twice charged the client twice for one request. That over-counts against the
  // client, which is safe for a limiter (it never lets more through than the limit), so it is a
  // finding to report, not a violation.
  duplicates: {
    hit: { finding: 'duplicate-hit', consequence: 'the client was charged twice for one request: a hit whose reply was lost ran again when its command was resent, and the window filled early' },
  },
  scripts: LIMITER_SCRIPTS,
  redisKey,
  referenceVariants: ['get-first', 'incr-first'],
  async openReference(redis, { scriptsDir, mode, namespace, quitOnClose, variant }) {
    const chosen = (variant ?? 'get-first') as LimiterVariant;
    const client = await LimiterClient.open(redis, { scriptsDir, mode, variant: chosen });
    return new RateLimitSubject(client, redis, `lua:${scriptsDir} (reference limiter client, ${chosen}, ${mode})`, (key) => redisKey(namespace, key), quitOnClose);
  },
} as const satisfies Pattern<RateLimitState, RateLimitInput, RateLimitOutput, RateLimitSubject>;
