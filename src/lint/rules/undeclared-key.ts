import type { Expression } from 'luaparse';
import { callArguments, isCall } from '../ast.ts';
import type { LuaProgram } from '../program.ts';
import { keyPositions, keySpecOf } from '../redis-commands.ts';
import { redisCallsIn } from '../redis-calls.ts';
import type { Rule } from '../rule.ts';
import type { RedisCall, Value } from '../semantics.ts';

/**
 * Cluster routing is decided from KEYS before the script runs, so every key a command touches
 * must be a KEYS entry: `KEYS[n]`, a local that is never reassigned after `local k = KEYS[n]`,
 * the value variable of `for _, k in ipairs(KEYS)`, or a helper parameter that every call
 * fills with one of those. `unpack(KEYS)` as the last argument supplies the remaining keys.
 * Commands missing from the key table, and commands named by a non-literal, are not checked.
 */
export const undeclaredKey: Rule = {
  id: 'undeclared-key',
  description: 'a key argument of redis.call/pcall is not a KEYS entry, so cluster routing cannot see it',
  severity: 'error',
  check(program, report) {
    for (const call of redisCallsIn(program)) {
      const spec = call.command && keySpecOf(call.command);
      if (!spec) continue;
      const numkeys = spec.kind === 'numkeys' ? numkeysOf(program, call, spec.countAt) : undefined;
      for (const position of keyPositions(spec, call.args.length, numkeys)) {
        const argument = call.args[position];
        if (position === call.args.length - 1 && unpacksKeys(program, argument)) break;
        const value = program.semantics.classify(argument);
        if (value.kind !== 'key') {
          const what = readsGlobalKeysInLibrary(program, argument)
            ? "the global KEYS, which Functions do not have (keys are the callback's first parameter)"
            : describe(value);
          report(
            argument,
            `${call.command} key argument ${program.quote(argument)} is ${what}; pass every key in KEYS`,
          );
        }
      }
    }
  },
};

function numkeysOf(program: LuaProgram, call: RedisCall, countAt: number): number | undefined {
  const argument = call.args[countAt];
  return argument ? program.semantics.literalNumber(argument) : undefined;
}

function unpacksKeys(program: LuaProgram, argument: Expression): boolean {
  if (!isCall(argument)) return false;
  const { semantics } = program;
  const callee = argument.base;
  if (semantics.globalName(callee) !== 'unpack' && !semantics.isGlobalMember(callee, 'table', 'unpack')) return false;
  const [table] = callArguments(argument);
  return table !== undefined && semantics.classify(table).kind === 'keysTable';
}

function readsGlobalKeysInLibrary(program: LuaProgram, argument: Expression): boolean {
  return (
    program.isLibrary && argument.type === 'IndexExpression' && program.semantics.globalName(argument.base) === 'KEYS'
  );
}

function describe(value: Value): string {
  switch (value.kind) {
    case 'literal':
      return 'a literal, not a KEYS entry';
    case 'concatenation':
      return 'built by concatenation inside the script';
    case 'argv':
      return 'an ARGV value, not a KEYS entry';
    case 'argvTable':
    case 'keysTable':
      return 'a whole table, not one key';
    default:
      return 'not provably bound to KEYS[n]';
  }
}
