/**
 * A streaming RESP splitter: says where each top-level value ends in a byte stream that arrives in
 * chunks cut anywhere, without decoding values or copying the stream. The RESP point uses it to
 * count commands (client -> server) and the replies that answer them (server -> client), so a fault
 * can hold or drop one command's reply and nothing else.
 *
 * Replies: RESP2 and RESP3 (clients such as go-redis v9 and ioredis 6 speak RESP3 after HELLO 3).
 * An attribute (`|`) annotates the value after it and is not a reply of its own; a push (`>`) is
 * out of band and answers no command. Requests: arrays of bulk strings, or inline commands.
 */

const LF = 10;
const CR = 13;
/** Redis's own limit on an inline command or a header line (PROTO_INLINE_MAX_SIZE). */
const MAX_LINE = 64 * 1024;
/** Arguments kept of each command: the name and enough to find the first key of EVAL/EVALSHA/FCALL. */
const CAPTURED_ARGS = 4;
/** Longer arguments are not kept (a key that long is not one the harness made). */
const MAX_CAPTURED_BYTES = 1024;

export type Direction = 'request' | 'reply';

export interface Boundary {
  /** Offset in the chunk just past the value's last byte. */
  readonly end: number;
  /** Reply direction: a push, which answers no command. */
  readonly push: boolean;
  /** Request direction: the command's first arguments (name first); an argument too long to keep is null. */
  readonly args: readonly (Buffer | null)[];
}

export class RespSplitter {
  /** A header line that the chunk ended inside of. */
  private partialLine: Buffer | null = null;
  /** Bytes of the current bulk string (payload and CRLF) still to come. */
  private bulkLeft = 0;
  /** Payload bytes of the current bulk string still to capture; -1 when it is not captured. */
  private captureLeft = -1;
  private captureParts: Buffer[] = [];
  /** Open aggregates: elements still to come in each, and whether it is an attribute. */
  private readonly left: number[] = [];
  private readonly attribute: boolean[] = [];
  private topIsPush = false;
  private args: (Buffer | null)[] = [];
  /** The stream broke the protocol: nothing more is split, the caller passes bytes through. */
  lost = false;

  constructor(readonly direction: Direction) {}

  /** The values that end inside this chunk, in order. */
  push(chunk: Buffer): Boundary[] {
    const out: Boundary[] = [];
    let pos = 0;
    while (pos < chunk.length && !this.lost) {
      if (this.bulkLeft > 0) {
        pos = this.bulk(chunk, pos, out);
        continue;
      }
      const lf = chunk.indexOf(LF, pos);
      if (lf === -1) {
        const rest = chunk.subarray(pos);
        this.partialLine = this.partialLine ? Buffer.concat([this.partialLine, rest]) : Buffer.from(rest);
        if (this.partialLine.length > MAX_LINE) this.lost = true;
        break;
      }
      const piece = chunk.subarray(pos, lf + 1);
      const line = this.partialLine ? Buffer.concat([this.partialLine, piece]) : piece;
      this.partialLine = null;
      pos = lf + 1;
      if (this.direction === 'request') this.requestHeader(line, pos, out);
      else this.replyHeader(line, pos, out);
    }
    return out;
  }

  private bulk(chunk: Buffer, pos: number, out: Boundary[]): number {
    const take = Math.min(this.bulkLeft, chunk.length - pos);
    if (this.captureLeft > 0) {
      const keep = Math.min(this.captureLeft, take);
      this.captureParts.push(Buffer.from(chunk.subarray(pos, pos + keep)));
      this.captureLeft -= keep;
    }
    this.bulkLeft -= take;
    pos += take;
    if (this.bulkLeft === 0) {
      if (this.captureLeft === 0)
        this.args.push(this.captureParts.length === 1 ? this.captureParts[0] : Buffer.concat(this.captureParts));
      else if (this.args.length < CAPTURED_ARGS && this.direction === 'request') this.args.push(null);
      this.captureLeft = -1;
      this.captureParts = [];
      this.valueDone(pos, out);
    }
    return pos;
  }

  private requestHeader(line: Buffer, pos: number, out: Boundary[]): void {
    if (this.left.length === 0) {
      if (line[0] !== 0x2a /* '*' */) return this.inline(line, pos, out);
      const n = integer(line);
      if (n === undefined) return void (this.lost = true);
      // `*0` and `*-1` are no command: Redis reads them and answers nothing.
      if (n > 0) this.open(n, false);
      return;
    }
    if (line[0] !== 0x24 /* '$' */ || this.left.length !== 1) return void (this.lost = true);
    const length = integer(line);
    if (length === undefined || length < 0) return void (this.lost = true);
    this.startBulk(length, this.args.length < CAPTURED_ARGS && length <= MAX_CAPTURED_BYTES);
  }

  /** `GET key\r\n`: what redis-cli and telnet send. Blank lines are skipped, as Redis skips them. */
  private inline(line: Buffer, pos: number, out: Boundary[]): void {
    const words = line
      .toString('latin1')
      .trim()
      .split(/\s+/)
      .filter((w) => w.length > 0);
    if (words.length === 0) return;
    out.push({ end: pos, push: false, args: words.slice(0, CAPTURED_ARGS).map((w) => Buffer.from(w, 'latin1')) });
  }

  private replyHeader(line: Buffer, pos: number, out: Boundary[]): void {
    const type = line[0];
    switch (type) {
      case 0x2b: // + simple string
      case 0x2d: // - error
      case 0x3a: // : integer
      case 0x5f: // _ null
      case 0x2c: // , double
      case 0x23: // # boolean
      case 0x28: // ( big number
        return this.valueDone(pos, out);
      case 0x24: // $ bulk string
      case 0x21: // ! bulk error
      case 0x3d: {
        // = verbatim string
        const length = integer(line);
        if (length === undefined) return void (this.lost = true);
        if (length < 0) return this.valueDone(pos, out); // RESP2 null bulk
        return this.startBulk(length, false);
      }
      case 0x2a: // * array
      case 0x7e: // ~ set
      case 0x3e: // > push
      case 0x25: // % map
      case 0x7c: {
        // | attribute
        const n = integer(line);
        if (n === undefined) return void (this.lost = true);
        const elements = type === 0x25 || type === 0x7c ? 2 * n : n;
        if (type === 0x3e && this.left.length === 0) this.topIsPush = true;
        if (elements > 0) return this.open(elements, type === 0x7c);
        if (type === 0x7c) return; // an empty attribute annotates nothing
        return this.valueDone(pos, out); // empty or null aggregate
      }
      default:
        this.lost = true;
    }
  }

  private startBulk(length: number, capture: boolean): void {
    this.bulkLeft = length + 2;
    this.captureLeft = capture ? length : -1;
    this.captureParts = [];
    // A zero-length argument is captured as soon as its CRLF has gone by.
  }

  private open(elements: number, isAttribute: boolean): void {
    this.left.push(elements);
    this.attribute.push(isAttribute);
  }

  /** A value ended at `pos`: close every aggregate it completes; a top-level one is a boundary. */
  private valueDone(pos: number, out: Boundary[]): void {
    for (;;) {
      const depth = this.left.length;
      if (depth === 0) {
        out.push({ end: pos, push: this.topIsPush, args: this.args });
        this.topIsPush = false;
        this.args = [];
        return;
      }
      if (--this.left[depth - 1] > 0) return;
      this.left.pop();
      // An attribute annotates the next value: it is not an element of its parent, nor a reply.
      if (this.attribute.pop()) return;
    }
  }
}

/** The integer after a header line's type byte, or undefined when it is not one (parsed by hand: this runs for every value). */
function integer(line: Buffer): number | undefined {
  let end = line.length;
  if (line[end - 1] === LF) end--;
  if (line[end - 1] === CR) end--;
  let i = 1;
  const negative = line[i] === 0x2d;
  if (negative) i++;
  if (i === end || end - i > 15) return undefined;
  let value = 0;
  for (; i < end; i++) {
    const digit = line[i] - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}
