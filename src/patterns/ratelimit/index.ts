/**
 * The fixed-window rate limiter (lua/ratelimit): a hit is allowed while the window's count is under
 * the limit. Declared with the pattern API a team uses (definePattern): the core (its one operation,
 * the model, its invariant) and the opt-in groups it needs beyond it: its own sessions, settings and
 * races, the answers limiter libraries give (levels), what a hit run twice means, and its reference
 * client, whose two variants run two scripts.
 */
import { arg, compilePattern, definePattern, type Pattern } from '../../pattern.ts';
import { LIMITER_SCRIPTS, LimiterClient, type LimiterVariant } from './client.ts';
import { classifyRateLimit } from './invariants.ts';
import { ratelimitLevels } from './levels.ts';
import { ratelimit as model, type RateLimitInput, type RateLimitOutput, type RateLimitState } from './model.ts';
import { ratelimitSession } from './sessions.ts';
import { ratelimitSettings } from './settings.ts';
import { RateLimitSubject } from './subject.ts';
import { ratelimitRaces } from './races.ts';

const redisKey = (namespace: string, logicalKey: string) => `ratelimit:{${namespace}:${logicalKey}}`;
const { limit, window } = ratelimitSettings;

const spec = definePattern<RateLimitState, RateLimitInput, RateLimitOutput>({
  name: 'ratelimit',
  operations: {
    hit: {
      // A limit of 0 is a valid input (the model refuses it: the two scripts answer it differently);
      // the sessions draw both from the job's settings (./settings.ts).
      args: {
        limit: arg.integer({ min: 0, max: limit.max }),
        windowSeconds: arg.integer({ min: window.min, max: window.max }),
      },
      // The window is in seconds, as the scripts EXPIRE: the counter lasts that many times 1000 ms.
      lease: { ms: (input) => input.windowSeconds * 1000, maxMs: window.max * 1000 },
      script: LIMITER_SCRIPTS[0],
      answer: '1 allowed | 0 blocked',
    },
  },
  model: {
    init: model.init,
    step: model.step,
    leases: (state) => (state.kind === 'window' ? [state.tag] : []),
    expire: model.expire,
    matches: model.outputMatches,
    hash: model.hashState,
    describe: model.describeState,
    describeInput: model.describeInput,
    describeOutput: model.describeOutput,
  },
  invariants: {
    'limit-respected': { witnesses: ['hit'] },
    // Named by the post-run TTL probe (noTtl), never by a stuck point.
    'counter-has-ttl': { witnesses: ['hit'] },
  },
  classify: classifyRateLimit,
  classifyPriority: ['limit-respected'],
  noTtl: { invariant: 'counter-has-ttl', consequence: 'blocks its window forever' },
  key: redisKey,
  settings: ratelimitSettings,
  session: (ctx) => ratelimitSession(ctx),
  races: ratelimitRaces,
  levels: ratelimitLevels,
  coverage: {
    transitions: ['absent → window by hit', 'window → window by hit', 'window → absent by expiry'],
    required: [
      { transition: 'absent → window by hit', needs: ['hit'] },
      { transition: 'window → window by hit', needs: ['hit'] },
      { transition: 'window → absent by expiry', needsAnyOf: ['lease-expiry'], needs: ['hit'] },
    ],
  },
  // A hit that ran twice charged the client twice for one request. That over-counts against the
  // client, which is safe for a limiter (it never lets more through than the limit), so it is a
  // finding to report, not a violation.
  duplicates: {
    hit: {
      finding: 'duplicate-hit',
      consequence:
        'the client was charged twice for one request: a hit whose reply was lost ran again when its command was resent, and the window filled early',
    },
  },
  reference: {
    async open(redis, { scriptsDir, mode, namespace, quitOnClose, variant }) {
      const chosen = (variant ?? 'get-first') as LimiterVariant;
      const client = await LimiterClient.open(redis, { scriptsDir, mode, variant: chosen });
      return new RateLimitSubject(
        client,
        redis,
        `lua:${scriptsDir} (reference limiter client, ${chosen}, ${mode})`,
        (key) => redisKey(namespace, key),
        quitOnClose,
      );
    },
    variants: ['get-first', 'incr-first'],
    scripts: LIMITER_SCRIPTS,
  },
});

export const ratelimit = compilePattern(spec) as Pattern<
  RateLimitState,
  RateLimitInput,
  RateLimitOutput,
  RateLimitSubject
>;
