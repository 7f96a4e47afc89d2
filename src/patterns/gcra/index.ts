/** The GCRA limiter (lua/gcra; go-redis/redis_rate's algorithm): one hit per emission interval on average, `burst` at once. */
import { withLevels, type Pattern } from '../../pattern.ts';
import { GCRA_SCRIPTS, GcraClient } from './client.ts';
import { classifyGcra } from './invariants.ts';
import { gcraLevels } from './levels.ts';
import { gcra as model, type GcraInput, type GcraOutput, type GcraState } from './model.ts';
import { gcraSession } from './sessions.ts';
import { gcraSettings } from './settings.ts';
import { GcraSubject } from './subject.ts';
import { gcraRaces } from './races.ts';

const redisKey = (namespace: string, logicalKey: string) => `gcra:{${namespace}:${logicalKey}}`;

export const gcra = {
  name: 'gcra',
  operations: {
    hit: { args: { burst: 'integer>=1', rate: 'integer>=1', periodMs: 'integer>=1' }, method: 'hit', answer: '1 allowed | 0 blocked' },
  },
  model: withLevels(model, gcraLevels),
  levels: gcraLevels,
  settings: gcraSettings,
  session: (ctx) => gcraSession(ctx),
  races: gcraRaces,
  invariants: ['burst-respected', 'key-has-ttl', 'model-conformance'],
  witnesses: { 'burst-respected': ['hit'], 'key-has-ttl': ['hit'] },
  classify: classifyGcra,
  classifyPriority: ['burst-respected'],
  noTtl: { invariant: 'key-has-ttl', consequence: 'keeps its arrival time, and so its refusals, forever' },
  // The arrival time is on the server's clock: one moved back (or set true after it ran ahead) refuses
  // hits the places in the model leave room for, and writes nothing when it does.
  clockRefusal: (_input, output) => output === 0,
  transitions: ['idle → busy by hit', 'busy → busy by hit', 'busy → idle by expiry'],
  requiredTransitions: [
    { transition: 'idle → busy by hit', needs: ['hit'] },
    { transition: 'busy → busy by hit', needs: ['hit'] },
    { transition: 'busy → idle by expiry', needs: ['hit'] },
  ],
  // A hit run twice took two places for one request: safe for a limiter (it lets fewer through).
  duplicates: {
    hit: { finding: 'duplicate-hit', consequence: 'one request took two places: a hit whose reply was lost ran again when its command was resent' },
  },
  scripts: GCRA_SCRIPTS,
  redisKey,
  async openReference(redis, { scriptsDir, mode, namespace, quitOnClose }) {
    const client = await GcraClient.open(redis, { scriptsDir, mode });
    return new GcraSubject(client, redis, `lua:${scriptsDir} (reference GCRA client, ${mode})`, (key) => redisKey(namespace, key), quitOnClose);
  },
} as const satisfies Pattern<GcraState, GcraInput, GcraOutput, GcraSubject>;
