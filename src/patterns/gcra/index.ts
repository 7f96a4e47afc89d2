/**
 * The GCRA limiter (lua/gcra; go-redis/redis_rate's algorithm): one hit per emission interval on
 * average, `burst` at once. Declared with the pattern API a team uses (definePattern): the core (its
 * one operation, the model, its invariant) and the opt-in groups it needs beyond it: its own
 * sessions, settings and races, the answers limiter libraries give (levels), the refusals a server
 * clock moved back gives, what a hit run twice means, and its reference client.
 */
import { arg, compilePattern, definePattern, type Pattern } from '../../pattern.ts';
import { GcraClient } from './client.ts';
import { classifyGcra } from './invariants.ts';
import { gcraLevels } from './levels.ts';
import { gcra as model, intervalMs, type GcraInput, type GcraOutput, type GcraState } from './model.ts';
import { gcraSession } from './sessions.ts';
import { gcraSettings } from './settings.ts';
import { GcraSubject } from './subject.ts';
import { gcraRaces } from './races.ts';

const redisKey = (namespace: string, logicalKey: string) => `gcra:{${namespace}:${logicalKey}}`;
const { burst, rate, period } = gcraSettings;

const spec = definePattern<GcraState, GcraInput, GcraOutput>({
  name: 'gcra',
  operations: {
    hit: {
      // The sessions draw them from the job's settings, one limit for every key (./settings.ts).
      args: {
        burst: arg.integer({ min: burst.min, max: burst.max }),
        rate: arg.integer({ min: rate.min, max: rate.max }),
        periodMs: arg.integer({ min: period.min, max: period.max }),
      },
      // A place is freed one interval after its hit, or up to `burst` intervals when hits queued
      // before it (./model.ts): known within those bounds.
      lease: {
        ms: (input) => [intervalMs(input), input.burst * intervalMs(input)],
        maxMs: (burst.max * period.max) / rate.min,
      },
      script: 'gcra',
      answer: '1 allowed | 0 blocked',
    },
  },
  model: {
    init: model.init,
    step: model.step,
    leases: (state) => state.places,
    // The first place taken, whose chain link ends first.
    firstLease: model.leaseTag,
    expire: model.expire,
    matches: model.outputMatches,
    hash: model.hashState,
    describe: model.describeState,
    describeInput: model.describeInput,
    describeOutput: model.describeOutput,
  },
  invariants: {
    'burst-respected': { witnesses: ['hit'] },
    // Named by the post-run TTL probe (noTtl), never by a stuck point.
    'key-has-ttl': { witnesses: ['hit'] },
  },
  classify: classifyGcra,
  classifyPriority: ['burst-respected'],
  noTtl: { invariant: 'key-has-ttl', consequence: 'keeps its arrival time, and so its refusals, forever' },
  key: redisKey,
  settings: gcraSettings,
  session: (ctx) => gcraSession(ctx),
  races: gcraRaces,
  levels: gcraLevels,
  // The arrival time is on the server's clock: one moved back (or set true after it ran ahead) refuses
  // hits the places in the model leave room for, and writes nothing when it does.
  clockRefusal: (_input, output) => output === 0,
  coverage: {
    transitions: ['idle → busy by hit', 'busy → busy by hit', 'busy → idle by expiry'],
    required: [
      { transition: 'idle → busy by hit', needs: ['hit'] },
      { transition: 'busy → busy by hit', needs: ['hit'] },
      { transition: 'busy → idle by expiry', needs: ['hit'] },
    ],
  },
  // A hit run twice took two places for one request: safe for a limiter (it lets fewer through).
  duplicates: {
    hit: {
      finding: 'duplicate-hit',
      consequence: 'one request took two places: a hit whose reply was lost ran again when its command was resent',
    },
  },
  reference: {
    async open(redis, { scriptsDir, mode, namespace, quitOnClose }) {
      const client = await GcraClient.open(redis, { scriptsDir, mode });
      return new GcraSubject(
        client,
        redis,
        `lua:${scriptsDir} (reference GCRA client, ${mode})`,
        (key) => redisKey(namespace, key),
        quitOnClose,
      );
    },
  },
});

export const gcra = compilePattern(spec) as Pattern<GcraState, GcraInput, GcraOutput, GcraSubject>;
