import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RespSplitter, type Direction } from '../../../src/resp/splitter.ts';

/** A RESP value written out, with what the splitter should say about it as a whole. */
interface Encoded {
  readonly bytes: Buffer;
  readonly push: boolean;
  /** Top-level values that are not replies on their own (attributes) carry no boundary. */
  readonly counts: boolean;
}

const bulk = (b: Buffer) => Buffer.concat([Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n')]);
/** Payloads that contain CRLF, '*' and '$' so a splitter that scans for them instead of counting fails. */
const payload = fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a));
const tricky = fc.oneof(
  payload,
  fc.constantFrom('\r\n', '*3\r\n', '$5\r\nhello\r\n', '').map((s) => Buffer.from(s)),
);

/** Client commands: arrays of bulk strings, a name first. */
const command = fc
  .tuple(fc.constantFrom('GET', 'DEL', 'SET', 'EVALSHA', 'evalsha', 'PING', 'INCR'), fc.array(tricky, { maxLength: 5 }))
  .map(([name, args]) => ({
    name,
    args,
    bytes: Buffer.concat([Buffer.from(`*${args.length + 1}\r\n`), bulk(Buffer.from(name)), ...args.map(bulk)]),
  }));

/** Any RESP2/RESP3 reply value, nested. */
const value: fc.Arbitrary<Buffer> = fc.letrec<{ v: Buffer }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .constantFrom(
        '+OK\r\n',
        '-ERR no\r\n',
        ':42\r\n',
        ':-1\r\n',
        '$-1\r\n',
        '*-1\r\n',
        '_\r\n',
        ',3.14\r\n',
        '#t\r\n',
        '(12345678901234567890\r\n',
        '*0\r\n',
        '%0\r\n',
      )
      .map((s) => Buffer.from(s)),
    tricky.map(bulk),
    tricky.map((b) => Buffer.concat([Buffer.from(`!${b.length}\r\n`), b, Buffer.from('\r\n')])),
    fc
      .array(tie('v'), { minLength: 1, maxLength: 3 })
      .map((items) => Buffer.concat([Buffer.from(`*${items.length}\r\n`), ...items])),
    fc
      .array(tie('v'), { minLength: 1, maxLength: 2 })
      .map((items) => Buffer.concat([Buffer.from(`~${items.length}\r\n`), ...items])),
    fc
      .array(fc.tuple(tie('v'), tie('v')), { minLength: 1, maxLength: 2 })
      .map((pairs) => Buffer.concat([Buffer.from(`%${pairs.length}\r\n`), ...pairs.flat()])),
    // An attribute inside an aggregate annotates the element after it and is not counted.
    fc.tuple(tie('v'), tie('v')).map(([a, b]) => Buffer.concat([Buffer.from('*1\r\n|1\r\n+key\r\n'), a, b])),
  ),
})).v;

const reply: fc.Arbitrary<Encoded> = fc.oneof(
  { weight: 6, arbitrary: value.map((bytes) => ({ bytes, push: false, counts: true })) },
  {
    weight: 1,
    arbitrary: fc.array(value, { minLength: 1, maxLength: 3 }).map((items) => ({
      bytes: Buffer.concat([Buffer.from(`>${items.length}\r\n`), ...items]),
      push: true,
      counts: true,
    })),
  },
  // A top-level attribute is followed by the reply it annotates: together they are one reply.
  {
    weight: 1,
    arbitrary: value.map((v) => ({
      bytes: Buffer.concat([Buffer.from('|1\r\n+ttl\r\n:5\r\n'), v]),
      push: false,
      counts: true,
    })),
  },
);

/** The stream cut at the given offsets (sorted, deduplicated, inside the stream). */
function chunks(stream: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of at) {
    out.push(stream.subarray(from, c));
    from = c;
  }
  out.push(stream.subarray(from));
  return out;
}

/** Absolute end offsets the splitter reports, over all chunks. */
function split(direction: Direction, parts: readonly Buffer[]) {
  const splitter = new RespSplitter(direction);
  const found: { end: number; push: boolean; args: readonly (Buffer | null)[] }[] = [];
  let offset = 0;
  for (const part of parts) {
    for (const b of splitter.push(part)) found.push({ end: offset + b.end, push: b.push, args: b.args });
    offset += part.length;
  }
  return { found, lost: splitter.lost };
}

const ends = (items: readonly { bytes: Buffer }[]) => {
  let end = 0;
  return items.map((i) => (end += i.bytes.length));
};

describe('RespSplitter', () => {
  it('splits a request stream cut anywhere into the same commands, with their first arguments', () => {
    fc.assert(
      fc.property(
        fc.array(command, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (commands, cuts) => {
          const stream = Buffer.concat(commands.map((c) => c.bytes));
          const { found, lost } = split('request', chunks(stream, cuts));
          expect(lost).toBe(false);
          expect(found.map((f) => f.end)).toEqual(ends(commands));
          expect(found.map((f) => f.args[0]?.toString())).toEqual(commands.map((c) => c.name));
          found.forEach((f, i) => expect(f.args.slice(1)).toEqual(commands[i].args.slice(0, 3)));
        },
      ),
      { numRuns: 500, seed: 15 },
    );
  });

  it('splits a reply stream (RESP2 and RESP3, nested, pushes and attributes) cut anywhere into the same replies', () => {
    fc.assert(
      fc.property(
        fc.array(reply, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (replies, cuts) => {
          const stream = Buffer.concat(replies.map((r) => r.bytes));
          const { found, lost } = split('reply', chunks(stream, cuts));
          expect(lost).toBe(false);
          expect(found.map((f) => f.end)).toEqual(ends(replies));
          expect(found.map((f) => f.push)).toEqual(replies.map((r) => r.push));
        },
      ),
      { numRuns: 500, seed: 15 },
    );
  });

  it('splits one byte at a time as well as whole', () => {
    const stream = Buffer.from('*2\r\n$3\r\nGET\r\n$1\r\nk\r\nPING\r\n\r\n*1\r\n$4\r\nPING\r\n');
    const { found } = split(
      'request',
      [...stream].map((b) => Buffer.from([b])),
    );
    expect(found.map((f) => f.args[0]?.toString())).toEqual(['GET', 'PING', 'PING']);
    expect(found.map((f) => f.end)).toEqual([20, 26, 42]);
  });

  it('reads inline commands and skips blank lines, as Redis does', () => {
    const { found } = split('request', [Buffer.from('\r\nset  k v\r\nGET k\n')]);
    expect(found.map((f) => f.args.map((a) => a?.toString()))).toEqual([
      ['set', 'k', 'v'],
      ['GET', 'k'],
    ]);
  });

  it('keeps at most the first four arguments, and none too long to be a key', () => {
    const long = Buffer.alloc(2_000, 0x61);
    const bytes = Buffer.concat([
      Buffer.from('*6\r\n'),
      ...['EVALSHA', 'abc', '1'].map((s) => bulk(Buffer.from(s))),
      bulk(long),
      bulk(Buffer.from('x')),
      bulk(Buffer.from('y')),
    ]);
    const { found } = split('request', [bytes]);
    expect(found[0].args.map((a) => a?.toString() ?? null)).toEqual(['EVALSHA', 'abc', '1', null]);
  });

  it('gives up on a stream that breaks the protocol, instead of guessing', () => {
    expect(split('reply', [Buffer.from('+OK\r\n?what\r\n')]).lost).toBe(true);
    expect(split('request', [Buffer.from('*2\r\n:1\r\n')]).lost).toBe(true);
    expect(split('reply', [Buffer.from('+OK\r\n?what\r\n')]).found.map((f) => f.end)).toEqual([5]);
  });
});
