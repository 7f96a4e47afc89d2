import { KEYSPACE_COMMANDS } from '../redis-commands.ts';
import { redisCallsIn } from '../redis-calls.ts';
import type { Rule } from '../rule.ts';

/** KEYS and SCAN walk every key of a node while the script blocks it, and see only one node. */
export const keyspaceScan: Rule = {
  id: 'keyspace-scan',
  description: 'KEYS or SCAN inside a script blocks the node for a walk of its whole keyspace',
  severity: 'error',
  check(program, report) {
    for (const call of redisCallsIn(program)) {
      if (call.command && KEYSPACE_COMMANDS.has(call.command)) {
        report(call.node, `${call.command} walks the whole keyspace of a node; pass the keys the script needs in KEYS`);
      }
    }
  },
};
