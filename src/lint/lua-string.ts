import type { StringLiteral } from 'luaparse';

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '\n': '\n',
};

/**
 * The value of a Lua 5.1 string literal, decoded from its raw text. luaparse only fills `value`
 * in its byte-oriented encoding modes, which reject ordinary UTF-8 text in strings; decoding the
 * raw text ourselves keeps the parser in its default mode and columns in characters.
 */
export function luaStringValue(literal: StringLiteral): string {
  const raw = literal.raw;
  if (raw.startsWith('[')) {
    const open = raw.indexOf('[', 1) + 1;
    // A long string drops one newline right after its opening bracket.
    const body = raw.slice(open, raw.length - open);
    return body.startsWith('\r\n') ? body.slice(2) : body.startsWith('\n') ? body.slice(1) : body;
  }
  const body = raw.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = body[++i] ?? '';
    if (next in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[next];
    } else if (/[0-9]/.test(next)) {
      let digits = next;
      while (digits.length < 3 && /[0-9]/.test(body[i + 1] ?? '')) digits += body[++i];
      out += String.fromCharCode(Number(digits));
    } else {
      out += next;
    }
  }
  return out;
}
