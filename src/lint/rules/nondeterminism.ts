import { walk } from '../ast.ts';
import { NONDETERMINISTIC_COMMANDS } from '../redis-commands.ts';
import { redisCallsIn } from '../redis-calls.ts';
import type { Rule } from '../rule.ts';

/**
 * A script's result should follow from its KEYS, ARGV and the data, so that a replayed run decides
 * the same. Advice, not an error: Redis 7 replicates a script's effects, not the script, so a replica
 * never re-reads the clock or re-draws a choice (go-redis/redis_rate's GCRA reads TIME, and so may a
 * correct semaphore). HRANDFIELD and ZRANDMEMBER are random for the same reason
 * as SRANDMEMBER and are flagged with it. Any read of `math.random` counts, called or not.
 */
export const nondeterminism: Rule = {
  id: 'nondeterminism',
  description: 'TIME, RANDOMKEY, SRANDMEMBER, SPOP or math.random make the result depend on more than the inputs',
  severity: 'advice',
  check(program, report) {
    for (const call of redisCallsIn(program)) {
      if (call.command && NONDETERMINISTIC_COMMANDS.has(call.command)) {
        const hint = call.command === 'TIME' ? 'pass the time in ARGV' : 'pass the choice in ARGV';
        report(
          call.node,
          `${call.command} is not deterministic; ${hint} to make the script replayable (safe under Redis 7 effects replication)`,
        );
      }
    }
    walk(program.chunk, (node) => {
      if (
        (node.type === 'MemberExpression' || node.type === 'IndexExpression') &&
        program.semantics.isGlobalMember(node, 'math', 'random')
      ) {
        report(node, 'math.random is not deterministic; pass random values in ARGV');
      }
    });
  },
};
