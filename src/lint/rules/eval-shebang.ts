import { MUTATING_COMMANDS } from '../redis-commands.ts';
import { redisCallsIn } from '../redis-calls.ts';
import type { Rule } from '../rule.ts';

/**
 * Redis 7 takes an EVAL script without a `#!lua` first line for a possible read: a replica runs it
 * when a client sends it there over a READONLY connection (ioredis opens its replica connections so,
 * and a stale slot map sends commands to them), so it reads stale data and its write then fails at
 * its line. With the line and no `no-writes` flag it is a write, and the replica answers MOVED.
 * Advice: a script that runs only on masters is right without it (bench/replica-eval.ts shows both).
 * A Functions library is not an EVAL script: its functions say what they are with their flags.
 */
export const evalShebang: Rule = {
  id: 'eval-shebang',
  description: "a script that writes has no '#!lua' first line, so a replica runs it for a READONLY connection",
  severity: 'advice',
  check(program, report) {
    if (program.isLibrary || program.shebang) return;
    const write = redisCallsIn(program).find(
      (call) => call.command === undefined || MUTATING_COMMANDS.has(call.command),
    );
    if (write === undefined) return;
    const what = write.command ?? 'a command named at run time';
    report(
      write.node,
      `${what} may write and the script has no '#!lua' first line: a replica runs it for a READONLY connection (stale reads, then the write fails); start it with '#!lua' so the replica redirects it (Redis 7)`,
    );
  },
};
