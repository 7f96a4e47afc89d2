/**
 * A small EDN reader for what Jepsen histories use: maps, vectors, lists, sets, keywords, symbols,
 * strings, integers, floats, ratios as floats, nil, true/false, comments, `#_` discards, and tagged
 * elements (`#jepsen.history.Op{...}` reads as its map). Not a full EDN reader: characters (`\a`),
 * bigint/bigdec suffixes beyond a plain number, and namespaced map syntax are refused with a message.
 *
 * Keywords read as `Keyword` objects so that `:ok` and the string "ok" stay apart; maps read as
 * JS Maps keyed by the keyword's or string's text (Jepsen keys are keywords).
 */

export class Keyword {
  constructor(readonly name: string) {}
  toString(): string {
    return `:${this.name}`;
  }
}

export class EdnSymbol {
  constructor(readonly name: string) {}
}

export type EdnValue = null | boolean | number | string | Keyword | EdnSymbol | EdnValue[] | EdnMap;
export type EdnMap = Map<string, EdnValue>;

/** A top-level form and the line it starts on (1-based). */
export interface EdnForm {
  readonly value: EdnValue;
  readonly line: number;
}

export class EdnSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly expected: string,
  ) {
    super(`line ${line}: ${expected}`);
  }
}

const SPACES = [' ', ',', '\n', '\t', '\r', '\f']; // commas are whitespace in EDN
const DELIMITERS = ['(', ')', '[', ']', '{', '}', '"', ';'];
/** By character code (below 128; any other character is neither): a space; a space or a delimiter, which ends a token. */
const IS_SPACE = new Uint8Array(128);
const ENDS_TOKEN = new Uint8Array(128);
for (const c of SPACES) IS_SPACE[c.charCodeAt(0)] = ENDS_TOKEN[c.charCodeAt(0)] = 1;
for (const c of DELIMITERS) ENDS_TOKEN[c.charCodeAt(0)] = 1;
const SEMICOLON = 0x3b;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '"': '"',
  '\\': '\\',
  b: '\b',
  f: '\f',
};

/** Every top-level form of `text`, in order. */
export function readEdnForms(text: string): EdnForm[] {
  const reader = new Reader(text);
  const forms: EdnForm[] = [];
  for (;;) {
    reader.skip();
    if (reader.atEnd()) return forms;
    const line = reader.line;
    const value = reader.form();
    if (value !== DISCARDED) forms.push({ value, line });
  }
}

const DISCARDED = Symbol('discarded');

class Reader {
  private at = 0;
  line = 1;
  /** A history names a handful of keywords thousands of times; they are immutable, so one object each. */
  private readonly keywords = new Map<string, Keyword>();
  constructor(private readonly text: string) {}

  private keyword(name: string): Keyword {
    let keyword = this.keywords.get(name);
    if (keyword === undefined) this.keywords.set(name, (keyword = new Keyword(name)));
    return keyword;
  }

  atEnd(): boolean {
    return this.at >= this.text.length;
  }

  skip(): void {
    const t = this.text;
    while (this.at < t.length) {
      const c = t.charCodeAt(this.at);
      if (c === NEWLINE) this.line++;
      if (IS_SPACE[c] === 1) this.at++;
      else if (c === SEMICOLON) while (this.at < t.length && t.charCodeAt(this.at) !== NEWLINE) this.at++;
      else return;
    }
  }

  form(): EdnValue | typeof DISCARDED {
    const c = this.text[this.at];
    switch (c) {
      case '{':
        this.at++;
        return this.map('}');
      case '[':
        this.at++;
        return this.sequence(']');
      case '(':
        this.at++;
        return this.sequence(')');
      case '"':
        return this.string();
      case '#':
        return this.dispatch();
      case ')':
      case ']':
      case '}':
        throw new EdnSyntaxError(this.line, `unexpected '${c}'`);
      case '\\':
        throw new EdnSyntaxError(this.line, 'character literals (\\c) are not supported');
      default:
        return this.atom();
    }
  }

  private value(closing: string): EdnValue {
    for (;;) {
      this.skip();
      if (this.atEnd()) throw new EdnSyntaxError(this.line, `expected '${closing}' before the end of the input`);
      const v = this.form();
      if (v !== DISCARDED) return v;
    }
  }

  private sequence(closing: string): EdnValue[] {
    // An unclosed form is reported where it opened: that is the line a person has to fix.
    const opened = this.line;
    const items: EdnValue[] = [];
    for (;;) {
      this.skip();
      if (this.atEnd())
        throw new EdnSyntaxError(
          opened,
          `expected '${closing}' to close the form opened on this line before the end of the input`,
        );
      if (this.text[this.at] === closing) {
        this.at++;
        return items;
      }
      const v = this.form();
      if (v !== DISCARDED) items.push(v);
    }
  }

  private map(closing: string): EdnMap {
    const items = this.sequence(closing);
    if (items.length % 2 !== 0)
      throw new EdnSyntaxError(this.line, 'a map needs an even number of forms (key value pairs)');
    const map: EdnMap = new Map();
    for (let i = 0; i < items.length; i += 2) map.set(mapKey(items[i], this.line), items[i + 1]);
    return map;
  }

  private dispatch(): EdnValue | typeof DISCARDED {
    const next = this.text[this.at + 1];
    if (next === '{') {
      this.at += 2;
      return this.sequence('}');
    }
    if (next === '_') {
      this.at += 2;
      this.value('a form after #_');
      return DISCARDED;
    }
    // A tagged element: #tag form. The tag names a record type; the form carries the data.
    this.at++;
    const tag = this.token();
    if (tag === '' || !/^[A-Za-z]/.test(tag)) throw new EdnSyntaxError(this.line, `expected a tag after '#'`);
    return this.value(`a form after #${tag}`);
  }

  private string(): string {
    const t = this.text;
    let out = '';
    this.at++;
    for (;;) {
      // Runs without an escape are sliced whole: one flat string per value, not one per character.
      const run = this.at;
      let c = 0;
      while (this.at < t.length && (c = t.charCodeAt(this.at)) !== QUOTE && c !== BACKSLASH) {
        if (c === NEWLINE) this.line++;
        this.at++;
      }
      if (this.at >= t.length)
        throw new EdnSyntaxError(this.line, "expected '\"' to close the string before the end of the input");
      out = out === '' ? t.slice(run, this.at) : out + t.slice(run, this.at);
      this.at++;
      if (c === QUOTE) return out;
      const e = t[this.at++];
      if (e in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[e];
      else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(t.slice(this.at, this.at + 4))) {
        out += String.fromCharCode(parseInt(t.slice(this.at, this.at + 4), 16));
        this.at += 4;
      } else throw new EdnSyntaxError(this.line, `unknown string escape '\\${e ?? ''}'`);
    }
  }

  private token(): string {
    const t = this.text;
    const start = this.at;
    while (this.at < t.length && !ENDS_TOKEN[t.charCodeAt(this.at)]) this.at++;
    return t.slice(start, this.at);
  }

  private atom(): EdnValue {
    const token = this.token();
    if (token === '') throw new EdnSyntaxError(this.line, `unexpected '${this.text[this.at]}'`);
    if (token === 'nil') return null;
    if (token === 'true') return true;
    if (token === 'false') return false;
    if (token.startsWith(':')) {
      if (token.length === 1) throw new EdnSyntaxError(this.line, 'expected a keyword name after ":"');
      return this.keyword(token.slice(1));
    }
    if (/^[+-]?\d/.test(token)) return number(token, this.line);
    return new EdnSymbol(token);
  }
}

function number(token: string, line: number): number {
  if (/^\d{1,15}$/.test(token)) return Number(token); // the common case: a small non-negative integer
  const int = /^([+-]?\d+)N?$/.exec(token);
  if (int) {
    const n = Number(int[1]);
    if (!Number.isSafeInteger(n))
      throw new EdnSyntaxError(line, `integer ${token} is beyond 2^53 and cannot be read exactly`);
    return n;
  }
  const ratio = /^([+-]?\d+)\/(\d+)$/.exec(token);
  if (ratio) return Number(ratio[1]) / Number(ratio[2]);
  if (/^[+-]?\d+(\.\d*)?([eE][+-]?\d+)?M?$/.test(token)) return Number(token.replace(/M$/, ''));
  throw new EdnSyntaxError(line, `expected a number, got '${token}'`);
}

function mapKey(key: EdnValue, line: number): string {
  if (key instanceof Keyword) return key.name;
  if (typeof key === 'string') return key;
  if (typeof key === 'number') return String(key);
  throw new EdnSyntaxError(line, 'map keys must be keywords, strings or numbers');
}

/** EDN text of a value, as this reader reads it back. Map keys that are valid keyword names become keywords. */
export function writeEdn(value: EdnValue): string {
  if (value === null) return 'nil';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`EDN has no ${value}`);
    return String(value);
  }
  // JSON's string escapes (\n, \", \\, \uXXXX) are EDN's.
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Keyword) return `:${value.name}`;
  if (value instanceof EdnSymbol) return value.name;
  if (Array.isArray(value)) return `[${value.map(writeEdn).join(' ')}]`;
  return `{${[...value].map(([k, v]) => `${/^[A-Za-z*+!_?-][\w*+!?./-]*$/.test(k) ? `:${k}` : JSON.stringify(k)} ${writeEdn(v)}`).join(', ')}}`;
}
