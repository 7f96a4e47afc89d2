import type { PatternName } from '../../patterns/index.ts';
import { redisKeyFor } from '../redis-keys.ts';
import type { Receipt, Subject } from '../types.ts';
import { requestParts } from './protocol.ts';
import type { ProcessSession } from './session.ts';

/**
 * One Subject per logical client, all views on the same process: the program sees the ready Redis
 * key and the model input's fields, and may run any number of requests at once.
 */
export function processSubjects(session: ProcessSession, pattern: PatternName, clients: number, name: string, namespace = 'chaoslua'): Subject[] {
  return Array.from({ length: clients }, (_, client) => ({
    name,
    redisKey: (key: string) => redisKeyFor(pattern, namespace, key),
    async invoke(key: string, input: unknown, receipt?: Receipt) {
      const { op, args } = requestParts(input);
      return session.request(client, op, redisKeyFor(pattern, namespace, key), args, receipt);
    },
    // The process is shared: the opener closes it once, not each view.
    close: async () => undefined,
  }));
}
