import { StringDecoder } from 'node:string_decoder';

/** Longest stdout line accepted: far above any reply, and a bound on what a runaway program costs. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * Splits a byte stream into lines (LF, optional CR before it). A line longer than the bound is
 * reported once instead of being buffered without end.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private buffer = '';
  private overflowed = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: (length: number) => void,
    private readonly maxLength = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    if (this.overflowed) return;
    this.buffer += this.decoder.write(chunk);
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      this.onLine(line);
    }
    if (this.buffer.length > this.maxLength) {
      this.overflowed = true;
      this.onOverflow(this.buffer.length);
      this.buffer = '';
    }
  }

  /** What is left without a final newline (a program killed mid-line). */
  rest(): string {
    return this.buffer + this.decoder.end();
  }
}
