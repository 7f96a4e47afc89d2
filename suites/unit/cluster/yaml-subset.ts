/**
 * Just enough YAML to read docker-compose.cluster.yml without a YAML dependency: block maps and
 * sequences (including sequences of maps), flow sequences of scalars, quoted and plain scalars,
 * comments, and block scalars (`|`, `|-`, `>`, `>-`, same-indentation folding only). Anchors, tags,
 * flow maps and multi-document streams are rejected rather than misread.
 */
export type Yaml = string | null | Yaml[] | { [key: string]: Yaml };

interface Line {
  readonly indent: number;
  readonly text: string;
  readonly raw: string;
  readonly no: number;
}

export function parseYaml(source: string): Yaml {
  const lines: Line[] = source
    .split('\n')
    .map((raw, i) => ({ raw, indent: raw.length - raw.trimStart().length, text: raw.trim(), no: i + 1 }));
  const state = { at: 0 };
  const skip = () => {
    while (state.at < lines.length && (lines[state.at].text === '' || lines[state.at].text.startsWith('#'))) state.at++;
  };
  const fail = (line: Line, why: string): never => {
    throw new Error(`yaml-subset: line ${line.no}: ${why}: ${line.raw}`);
  };

  function block(indent: number): Yaml {
    skip();
    const first = lines[state.at];
    if (!first || first.indent < indent) return null;
    return first.text.startsWith('- ') || first.text === '-' ? sequence(first.indent) : map(first.indent);
  }

  function map(indent: number): { [key: string]: Yaml } {
    const out: { [key: string]: Yaml } = {};
    for (skip(); state.at < lines.length && lines[state.at].indent === indent; skip()) {
      const line = lines[state.at];
      const match = /^("[^"]*"|'[^']*'|[^\s:#][^:#]*?)\s*:(?:\s+(.*))?$/.exec(line.text);
      if (!match) fail(line, 'expected key: value');
      const key = scalar(match![1], line) as string;
      if (key in out) fail(line, `duplicate key '${key}'`);
      state.at++;
      out[key] = value(match![2] ?? '', indent, line);
    }
    const next = lines[state.at];
    if (next && next.indent > indent) fail(next, 'unexpected indentation');
    return out;
  }

  function sequence(indent: number): Yaml[] {
    const out: Yaml[] = [];
    for (
      skip();
      state.at < lines.length && lines[state.at].indent === indent && /^-(\s|$)/.test(lines[state.at].text);
      skip()
    ) {
      const line = lines[state.at];
      const rest = line.text.slice(1).trim();
      if (/^("[^"]*"|'[^']*'|[^\s:#'"[][^:#]*?)\s*:(\s|$)/.test(rest)) {
        // "- key: value": a map whose first line is the dash's content, one step further in.
        const inner = line.raw.indexOf(rest);
        lines[state.at] = { ...line, indent: inner, text: rest };
        out.push(map(inner));
      } else {
        state.at++;
        out.push(value(rest, indent, line));
      }
    }
    return out;
  }

  function value(rest: string, indent: number, line: Line): Yaml {
    const text = stripComment(rest);
    const blockScalar = /^([|>])(-?)$/.exec(text);
    if (blockScalar) return literal(indent, blockScalar[1] === '>', blockScalar[2] === '-');
    if (text === '') return block(indent + 1);
    return scalar(text, line);
  }

  function literal(indent: number, folded: boolean, strip: boolean): string {
    const body: string[] = [];
    let inner: number | undefined;
    while (state.at < lines.length) {
      const line = lines[state.at];
      if (line.text !== '' && line.indent <= indent) break;
      inner ??= line.text === '' ? undefined : line.indent;
      body.push(line.text === '' ? '' : line.raw.slice(inner));
      state.at++;
    }
    while (body.length && body[body.length - 1] === '') body.pop();
    const text = folded
      ? body.reduce(
          (out, l) => (l === '' ? `${out}\n` : out === '' || out.endsWith('\n') ? out + l : `${out} ${l}`),
          '',
        )
      : body.join('\n');
    return strip ? text : `${text}\n`;
  }

  function scalar(text: string, line: Line): Yaml {
    if (/^[&*!{]/.test(text) || text === '---') fail(line, 'unsupported YAML feature');
    if (text.startsWith('[')) {
      if (!text.endsWith(']')) fail(line, 'unterminated flow sequence');
      const inner = text.slice(1, -1).trim();
      return inner === '' ? [] : splitFlow(inner).map((item) => scalar(item.trim(), line));
    }
    if (text.startsWith('"')) {
      if (!text.endsWith('"') || text.length < 2) fail(line, 'unterminated double-quoted string');
      return JSON.parse(text) as string;
    }
    if (text.startsWith("'")) {
      if (!text.endsWith("'") || text.length < 2) fail(line, 'unterminated single-quoted string');
      return text.slice(1, -1).replace(/''/g, "'");
    }
    return text === '~' || text === 'null' ? null : text;
  }

  const result = block(0);
  skip();
  if (state.at < lines.length) fail(lines[state.at], 'unexpected content');
  return result;
}

/** Drop a trailing ` # comment` that is outside quotes. */
function stripComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) return text.slice(0, i).trim();
  }
  return text.trim();
}

function splitFlow(text: string): string[] {
  const items: string[] = [];
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ',') {
      items.push(text.slice(start, i));
      start = i + 1;
    }
  }
  items.push(text.slice(start));
  return items;
}
