import luaparse from 'luaparse';
import type { Chunk } from 'luaparse';

export interface ParsedLua {
  chunk: Chunk;
  /** True when the file starts with a Functions shebang (`#!lua name=...`); an EVAL script's `#!lua [flags=...]` is not one. */
  hasShebang: boolean;
  /** True when the file starts with `#!lua`, either kind: an EVAL script's marks it a write for Redis 7 (rules/eval-shebang.ts). */
  startsWithShebang: boolean;
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
  const shebang = /^#![^\n]*/.exec(source)?.[0];
  const hasShebang = shebang !== undefined && /\bname=/.test(shebang);
  // Either shebang is not Lua: blanked, keeping its newline, so lines and columns stay where they were.
  const text = shebang !== undefined ? source.slice(shebang.length) : source;
  // luaparse cannot report a bad first token: it reads the previous parse's lookahead for "near"
  // (a TypeError on the first file, the last file's '<eof>' on a later one). Lua's own message
  // for it is checked here instead.
  const first = firstTokenError(text);
  if (first) return { ok: false, error: first };
  try {
    const chunk = luaparse.parse(text, { luaVersion: '5.1', locations: true, ranges: true, comments: true });
    return {
      ok: true,
      parsed: { chunk, hasShebang, startsWithShebang: shebang !== undefined && /^#!lua\b/.test(shebang), text },
    };
  } catch (error) {
    if (!isLuaparseSyntaxError(error)) {
      // Whatever else the parser trips on is still a file Redis would refuse, never a crash of lint.
      return {
        ok: false,
        error: {
          line: 1,
          column: 1,
          message: `the Lua parser could not read this file (${(error as Error).message?.split('\n')[0]})`,
        },
      };
    }
    const message = error.message.replace(/^\[\d+:\d+\]\s*/, '');
    return { ok: false, error: { line: error.line, column: error.column + 1, message } };
  }
}

/** Characters a Lua 5.1 token can begin with. */
const TOKEN_START = /[A-Za-z_0-9'"[\]*^%,{}();#+\-/=<>~.:]/;

/** Lua's "unexpected symbol near 'X'" when the first character after blanks and comments begins no token. */
function firstTokenError(text: string): LuaSyntaxError | undefined {
  let i = 0;
  for (;;) {
    while (i < text.length && /[ \t\r\n\f\v]/.test(text[i])) i++;
    if (!text.startsWith('--', i)) break;
    const long = /^--\[(=*)\[/.exec(text.slice(i, i + 64));
    if (long) {
      const close = text.indexOf(`]${long[1]}]`, i + long[0].length);
      if (close < 0) return undefined; // an unfinished comment: luaparse reports it
      i = close + long[1].length + 2;
    } else {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol;
    }
  }
  if (i >= text.length || TOKEN_START.test(text[i])) return undefined;
  const before = text.slice(0, i);
  const line = before.split('\n').length;
  const column = i - (before.lastIndexOf('\n') + 1) + 1;
  const shown = text.charCodeAt(i) < 32 || text.charCodeAt(i) === 127 ? `\\${text.charCodeAt(i)}` : text[i];
  return { line, column, message: `unexpected symbol near '${shown}'` };
}
