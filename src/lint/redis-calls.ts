import type { Node } from 'luaparse';
import { isCall, walk } from './ast.ts';
import type { LuaProgram } from './program.ts';
import type { RedisCall } from './semantics.ts';

/** Every `redis.call` / `redis.pcall` in the file, function bodies included, in source order. */
export function redisCallsIn(program: LuaProgram, root: Node = program.chunk): RedisCall[] {
  const calls: RedisCall[] = [];
  walk(root, (node) => {
    if (!isCall(node)) return;
    const call = program.semantics.redisCall(node);
    if (call) calls.push(call);
  });
  return calls;
}
