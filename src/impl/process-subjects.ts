import { exactCapabilities } from '../patterns/capabilities.ts';
import type { AnyPattern } from '../patterns/types.ts';
import { DeclaredAnswers } from './declared-answers.ts';
import type { ClientClockDoor, Receipt, Subject } from '../subject/types.ts';
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
  return routedSubjects(session, () => session, pattern, clients, name, namespace);
}

/** One logical client's own process and the clock it runs under (client-clock on the cmd: door). */
export interface ClientProcess {
  readonly session: ProcessSession;
  /** Move this process's wall clock: from now on it reads `offsetMs` more (0: the true clock). */
  setClock(offsetMs: number): void;
}

/**
 * One Subject per logical client, client c's requests going to its own process `processes[c]`, and
 * its clock offset (set by the runner) to that process's clock alone. The first process speaks for
 * the program: its declarations and the keys it says it computes (every process runs the same
 * command, so they declare alike).
 */
export function perClientProcessSubjects(
  processes: readonly ClientProcess[],
  pattern: AnyPattern,
  name: string,
  reach: string,
  namespace = 'chaoslua',
): Subject[] {
  const first = processes[0]?.session;
  if (!first) throw new RangeError('perClientProcessSubjects: no process');
  return routedSubjects(
    first,
    (c) => processes[c].session,
    pattern,
    processes.length,
    name,
    namespace,
    (c) => ({
      reach,
      set: (offsetMs) => processes[c].setClock(offsetMs),
    }),
  );
}

/** The views: declarations and key learning through `first`, client c's requests through `sessionOf(c)`. */
function routedSubjects(
  first: ProcessSession,
  sessionOf: (client: number) => ProcessSession,
  pattern: AnyPattern,
  clients: number,
  name: string,
  namespace: string,
  clockOf?: (client: number) => ClientClockDoor,
): Subject[] {
  const capabilities = first.capabilities ?? exactCapabilities(pattern);
  const mapping = first.keys;
  const handed = (key: string) => pattern.redisKey(namespace, key);
  // One table of holder handles for every view (./declared-answers.ts says why).
  const answers = new DeclaredAnswers(pattern, capabilities);
  return Array.from({ length: clients }, (_, client) => {
    const session = sessionOf(client);
    return {
      name,
      capabilities,
      redisKey: (key: string) => (mapping ? mapping.map(handed(key))[0] : handed(key)),
      ...(mapping ? { storedKeys: (key: string) => mapping.map(handed(key)), keyMapping: mapping.description } : {}),
      ...(clockOf ? { clientClock: clockOf(client) } : {}),
      async invoke(key: string, input: unknown, receipt?: Receipt) {
        const { op, args } = requestParts(input);
        const redisKey = handed(key);
        const fields = input as Record<string, unknown>;
        await first.learnKeys(redisKey);
        return answers.call(
          redisKey,
          fields,
          (handle) => session.request(client, op, redisKey, handle === undefined ? args : { ...args, handle }, receipt),
          receipt,
        );
      },
      // The processes are the opener's: it closes them once, not each view.
      close: async () => undefined,
    };
  });
}
