import type { Expression } from 'luaparse';
import { walk } from './ast.ts';
import type { LuaProgram, ScriptContext } from './program.ts';

const OWNER_NAME = /owner|token/i;
/** Names a header comment may use for the argument table (Functions callbacks often say `args`). */
const ARGUMENT_TABLES = new Set(['ARGV', 'argv', 'args', 'ARGS']);
/** `ARGV[2] = owner`, `ARGV[1]: the token`; several entries may share one comment line. */
const ARGUMENT_ENTRY =
  /([A-Za-z_]\w*)\s*\[\s*(\d+)\s*\]\s*(?:=|:|-+|\u2014|\u2013|is\b)?\s*(?:(?:the|an?)\s+)?([A-Za-z_][\w-]*)/g;

/**
 * The ARGV positions that carry an owner or token in one script: named so in its header
 * comments, or compared with a stored field called owner/token. Returns position -> name.
 */
export function ownerArguments(program: LuaProgram, context: ScriptContext): Map<number, string> {
  const owners = new Map<number, string>();
  for (const comment of context.comments) {
    for (const [, table, index, name] of comment.value.matchAll(ARGUMENT_ENTRY)) {
      if (ARGUMENT_TABLES.has(table) && OWNER_NAME.test(name)) owners.set(Number(index), name);
    }
  }
  const { semantics } = program;
  for (const statement of context.body) {
    walk(statement, (node) => {
      if (node.type !== 'BinaryExpression' || (node.operator !== '==' && node.operator !== '~=')) return;
      for (const [stored, argument] of [
        [node.left, node.right],
        [node.right, node.left],
      ]) {
        const field = storedFieldName(program, stored);
        const value = semantics.classify(argument);
        if (
          field &&
          OWNER_NAME.test(field) &&
          value.kind === 'argv' &&
          value.index !== undefined &&
          !owners.has(value.index)
        ) {
          owners.set(value.index, field);
        }
      }
    });
  }
  return owners;
}

/** The field a stored value was read from: `HGET key 'owner'`, `record.owner`, `record['owner']`. */
function storedFieldName(program: LuaProgram, expression: Expression): string | undefined {
  const { semantics } = program;
  const value = semantics.unalias(expression);
  const call = semantics.redisCall(value);
  if (call) return call.command === 'HGET' && call.args[1] ? semantics.literalString(call.args[1]) : undefined;
  if (value.type === 'MemberExpression' && semantics.isStored(value.base)) return value.identifier.name;
  if (value.type === 'IndexExpression' && semantics.isStored(value.base)) return semantics.literalString(value.index);
  return undefined;
}
