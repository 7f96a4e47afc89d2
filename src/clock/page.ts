/**
 * One process's clock page: the small file the preload (native/clockshift.c) maps and reads on every
 * wall-clock call, written here while the process runs. The layout and the seqlock are the C file's:
 * seq (odd while a write is in progress), offset_ns, anchor_ns, rate_ppm, little-endian 64-bit.
 */
import fs from 'node:fs';

/** Where a process's wall clock stands against the real one. */
export interface ClockSetting {
  /** Added to every reading, ms (positive: the clock is ahead). */
  readonly offsetMs: number;
  /** Drift from now on, parts per million (positive: the clock runs fast). 0: none. */
  readonly driftPpm?: number;
}

const PAGE_BYTES = 4096;

export class ClockPage {
  private seq = 0n;
  private setting: Required<ClockSetting> = { offsetMs: 0, driftPpm: 0 };
  private anchorMs = 0;

  private constructor(
    readonly file: string,
    private readonly fd: number,
  ) {}

  /** A page at `file`, the clock true (created or overwritten). */
  static create(file: string): ClockPage {
    fs.writeFileSync(file, Buffer.alloc(PAGE_BYTES));
    return new ClockPage(file, fs.openSync(file, 'r+'));
  }

  /** The offset the process reads now, ms: the set offset plus what the drift has added since it began. */
  offsetMs(atWallMs = Date.now()): number {
    const { offsetMs, driftPpm } = this.setting;
    return offsetMs + (driftPpm !== 0 && atWallMs > this.anchorMs ? ((atWallMs - this.anchorMs) * driftPpm) / 1e6 : 0);
  }

  /** Move the clock: from now on the process reads real time plus `offsetMs`, drifting by `driftPpm`. */
  set(setting: ClockSetting): void {
    const driftPpm = setting.driftPpm ?? 0;
    if (!Number.isFinite(setting.offsetMs) || !Number.isFinite(driftPpm))
      throw new RangeError(`clock page ${this.file}: offset and drift must be finite`);
    this.anchorMs = Date.now();
    this.setting = { offsetMs: setting.offsetMs, driftPpm };
    const fields = Buffer.alloc(24);
    fields.writeBigInt64LE(BigInt(Math.round(setting.offsetMs * 1e6)), 0);
    fields.writeBigInt64LE(BigInt(this.anchorMs) * 1_000_000n, 8);
    fields.writeBigInt64LE(BigInt(Math.round(driftPpm)), 16);
    this.writeSeq(++this.seq * 2n - 1n);
    fs.writeSync(this.fd, fields, 0, fields.length, 8);
    this.writeSeq(this.seq * 2n);
  }

  /** The clock true again. */
  reset(): void {
    this.set({ offsetMs: 0 });
  }

  close(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      /* already closed */
    }
  }

  private writeSeq(value: bigint): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(value, 0);
    fs.writeSync(this.fd, b, 0, 8, 0);
  }
}
