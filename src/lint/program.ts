import type { Chunk, Comment, Expression, FunctionDeclaration, Node, Statement } from 'luaparse';
import { callArguments, isCall, walk } from './ast.ts';
import type { ParsedLua } from './parse-lua.ts';
import { type ScopeInfo, resolveScopes } from './scopes.ts';
import { Semantics } from './semantics.ts';

/**
 * One unit of execution with its own KEYS and ARGV: the whole file for an EVAL script, or one
 * callback registered with `redis.register_function` in a Functions library.
 */
export interface ScriptContext {
  kind: 'script' | 'function';
  name: string;
  body: Statement[];
  /** Comments that document this unit (its header block and the comments inside it). */
  comments: Comment[];
}

/** Everything the rules need to know about one parsed file. */
export interface LuaProgram {
  chunk: Chunk;
  scopes: ScopeInfo;
  semantics: Semantics;
  isLibrary: boolean;
  /** The file starts with a `#!lua` line (a Functions library's or an EVAL script's). */
  shebang: boolean;
  contexts: ScriptContext[];
  /** The source text of a node, whitespace collapsed and shortened, for messages. */
  quote(node: Node): string;
}

interface RegisteredFunction {
  name: string;
  callback: FunctionDeclaration;
}

export function buildProgram(parsed: ParsedLua): LuaProgram {
  const { chunk } = parsed;
  const scopes = resolveScopes(chunk.body);
  const registrations = findRegistrations(chunk, scopes);
  const isLibrary = parsed.hasShebang || registrations.length > 0;
  const semantics = new Semantics(scopes, isLibrary, new Set(registrations.map((r) => r.callback)));
  const comments = chunk.comments ?? [];
  const contexts: ScriptContext[] = isLibrary
    ? registrations.map(({ name, callback }) => ({
        kind: 'function',
        name,
        body: callback.body,
        comments: commentsDocumenting(chunk, comments, callback),
      }))
    : [{ kind: 'script', name: 'script', body: chunk.body, comments }];
  return {
    chunk,
    scopes,
    semantics,
    isLibrary,
    shebang: parsed.startsWithShebang,
    contexts,
    quote: (node) => quote(parsed.text, node),
  };
}

/** `redis.register_function('name', fn)` and `redis.register_function{function_name=..., callback=...}`. */
function findRegistrations(chunk: Chunk, scopes: ScopeInfo): RegisteredFunction[] {
  const probe = new Semantics(scopes, true, new Set());
  const found: RegisteredFunction[] = [];
  walk(chunk, (node) => {
    if (!isCall(node) || !probe.isGlobalMember(node.base, 'redis', 'register_function')) return;
    const args = callArguments(node);
    let name: Expression | undefined = args[0];
    let callback: Expression | undefined = args[1];
    if (args[0]?.type === 'TableConstructorExpression') {
      for (const field of args[0].fields) {
        if (field.type !== 'TableKeyString') continue;
        if (field.key.name === 'function_name') name = field.value;
        if (field.key.name === 'callback') callback = field.value;
      }
    }
    const fn = callback && probe.functionOf(callback);
    if (fn) found.push({ name: (name && probe.literalString(name)) ?? '(unnamed)', callback: fn });
  });
  return found;
}

/**
 * The comments inside a callback plus the comment block just above the top-level statement
 * that defines it, so `-- ARGV[1] = owner` above one function does not describe its neighbours.
 */
function commentsDocumenting(chunk: Chunk, comments: Comment[], fn: FunctionDeclaration): Comment[] {
  const line = (node: Node, edge: 'start' | 'end') => node.loc?.[edge].line ?? 0;
  const index = chunk.body.findIndex(
    (statement) => line(statement, 'start') <= line(fn, 'start') && line(fn, 'end') <= line(statement, 'end'),
  );
  const statement = chunk.body[index];
  const above = index > 0 ? line(chunk.body[index - 1], 'end') : 0;
  const from = statement ? line(statement, 'start') : line(fn, 'start');
  return comments.filter((comment) => {
    const at = line(comment, 'start');
    return (at > above && at < from) || (at >= line(fn, 'start') && at <= line(fn, 'end'));
  });
}

function quote(text: string, node: Node): string {
  const range = (node as { range?: [number, number] }).range;
  if (!range) return node.type;
  const snippet = text.slice(range[0], range[1]).replace(/\s+/g, ' ').trim();
  return snippet.length > 60 ? `${snippet.slice(0, 57)}...` : snippet;
}
