import { exactCapabilities } from '../patterns/capabilities.ts';
import type { AnyPattern } from '../patterns/types.ts';
import { DeclaredAnswers } from './declared-answers.ts';
import type { Receipt, Subject } from '../subject/types.ts';
import { requestParts } from '../process-protocol/protocol.ts';
import type { ProcessSession } from '../process-protocol/session.ts';

/**
 * One Subject per logical client, all views on the same process: the program sees the ready Redis
 * key and the model input's fields (and, when its 1.1 hello declared holder handles, `args.handle`),
 * and may run any number of requests at once.
 */
export function processSubjects(
  session: ProcessSession,
  pattern: AnyPattern,
  clients: number,
  name: string,
  namespace = 'chaoslua',
): Subject[] {
  const capabilities = session.capabilities ?? exactCapabilities(pattern);
  const mapping = session.keys;
  const handed = (key: string) => pattern.redisKey(namespace, key);
  // One table of holder handles for every view (./declared-answers.ts says why).
  const answers = new DeclaredAnswers(pattern, capabilities);
  return Array.from({ length: clients }, (_, client) => {
    return {
      name,
      capabilities,
      redisKey: (key: string) => (mapping ? mapping.map(handed(key))[0] : handed(key)),
      ...(mapping ? { storedKeys: (key: string) => mapping.map(handed(key)), keyMapping: mapping.description } : {}),
      async invoke(key: string, input: unknown, receipt?: Receipt) {
        const { op, args } = requestParts(input);
        const redisKey = handed(key);
        const fields = input as Record<string, unknown>;
        await session.learnKeys(redisKey);
        return answers.call(
          redisKey,
          fields,
          (handle) => session.request(client, op, redisKey, handle === undefined ? args : { ...args, handle }, receipt),
          receipt,
        );
      },
      // The process is shared: the opener closes it once, not each view.
      close: async () => undefined,
    };
  });
}
