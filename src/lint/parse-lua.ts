import luaparse from 'luaparse';
import type { Chunk } from 'luaparse';

export interface ParsedLua {
  chunk: Chunk;
  /** True when the file starts with a Functions shebang (`#!lua name=...`). */
  hasShebang: boolean;
  /** The text luaparse saw (the shebang blanked), for quoting expressions by range. */
  text: string;
}

export interface LuaSyntaxError {
  line: number;
  column: number;
  message: string;
}

/** luaparse's SyntaxError carries 1-based line, 0-based column and a `[l:c] ` message prefix. */
interface LuaparseSyntaxError extends Error {
  line: number;
  column: number;
}

function isLuaparseSyntaxError(error: unknown): error is LuaparseSyntaxError {
  return error instanceof Error && typeof (error as Partial<LuaparseSyntaxError>).line === 'number';
}

/**
 * Parses Redis Lua (5.1). A Functions library starts with `#!lua name=lib`, which is not Lua:
 * that line is blanked (keeping its newline) so every other line and column stays where it was.
 */
export function parseLua(source: string): { ok: true; parsed: ParsedLua } | { ok: false; error: LuaSyntaxError } {
  const hasShebang = source.startsWith('#!');
  const text = hasShebang ? source.replace(/^#![^\n]*/, '') : source;
  try {
    const chunk = luaparse.parse(text, { luaVersion: '5.1', locations: true, ranges: true, comments: true });
    return { ok: true, parsed: { chunk, hasShebang, text } };
  } catch (error) {
    if (!isLuaparseSyntaxError(error)) throw error;
    const message = error.message.replace(/^\[\d+:\d+\]\s*/, '');
    return { ok: false, error: { line: error.line, column: error.column + 1, message } };
  }
}
