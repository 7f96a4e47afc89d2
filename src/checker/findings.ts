import type { History, OpRecord } from '../history/types.ts';

/**
 * Defects that are not wrong answers. A NOSCRIPT that reaches the caller is a failed operation, so
 * the linearizability check (rightly) sees nothing; but a client that never reloads its scripts
 * fails every call after a SCRIPT FLUSH, restart or failover, since that node's script cache is empty. A client
 * that reloads and retries once can surface NOSCRIPT only when the cache is wiped again between its
 * reload and its retry — never on two operations in a row — so two in a row by one client is the
 * finding, and a correct client never raises it. It names both causes seen in real clients: no
 * reload at all, and a reload sent to another node (rate-limit-redis's ioredis recipe).
 */
export function noscriptFinding(history: History): string | undefined {
  const byClient = new Map<number, OpRecord[]>();
  for (const op of history.ops) {
    let list = byClient.get(op.client);
    if (!list) byClient.set(op.client, (list = []));
    list.push(op);
  }
  for (const [client, ops] of byClient) {
    const sorted = [...ops].sort((a, b) => a.invokedAt - b.invokedAt);
    for (let i = 1; i < sorted.length; i++) {
      const [a, b] = [sorted[i - 1], sorted[i]];
      if (a.error?.startsWith('NOSCRIPT') && b.error?.startsWith('NOSCRIPT')) {
        return (
          `noscript-unhandled: client c${client} got NOSCRIPT on two operations in a row (ops ${a.id} and ${b.id} on ${b.key}): ` +
          // The history cannot tell which: it records answers, not the commands a client sent where.
          'its script is not reloaded on the node that refused it: either it never reloads after the cache is emptied (SCRIPT FLUSH, restart, failover), ' +
          'or it reloads with SCRIPT LOAD, which has no key and so goes to a random master of a Cluster, not to the one that answered NOSCRIPT; ' +
          'either way its calls there fail until it restarts'
        );
      }
    }
  }
  return undefined;
}
