import type { Socket } from 'node:net';

type Entry =
  | { readonly kind: 'data'; readonly bytes: Buffer; notBefore: number; readonly sent?: () => void }
  | { readonly kind: 'cut'; readonly sent: () => void }
  | { readonly kind: 'end' };

/**
 * One direction of a proxied connection: bytes leave in the order they came, none before its
 * `notBefore`, so holding one command (or one reply) holds everything behind it on that connection
 * and nothing is ever reordered. With nothing held, a write goes straight to the socket.
 */
export class Outbox {
  private readonly queue: Entry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private waitingForDrain = false;
  private closed = false;

  constructor(
    private readonly to: Socket,
    /** Paused while `to` is backed up. */
    private readonly from: Socket,
    /** Called when a queued cut is reached: every byte before it is written. */
    private readonly onCut: () => void,
  ) {}

  /** Bytes that may leave no earlier than `notBefore` (performance.now() ms, or once it is known); `sent` once they are written. */
  write(bytes: Buffer, notBefore: number | Promise<number> = 0, sent?: () => void): void {
    if (this.closed) return sent?.();
    if (bytes.length === 0 && !sent) return;
    if (typeof notBefore === 'number' && this.queue.length === 0 && notBefore <= performance.now()) {
      this.send(bytes);
      return sent?.();
    }
    const entry: Entry & { kind: 'data' } = {
      kind: 'data',
      bytes,
      notBefore: typeof notBefore === 'number' ? notBefore : Infinity,
      sent,
    };
    if (typeof notBefore !== 'number') {
      void notBefore.then((at) => {
        // releaseAll() may have ended the hold already.
        if (entry.notBefore === Infinity) entry.notBefore = at;
        this.pump();
      });
    }
    this.queue.push(entry);
    this.pump();
  }

  /** Close the connection once every byte queued so far has left; nothing after it is sent. */
  cut(sent: () => void): void {
    if (this.closed) return sent();
    this.queue.push({ kind: 'cut', sent });
    this.pump();
  }

  /** The other side finished: end this one after what is queued. */
  end(): void {
    if (this.closed) return;
    if (this.queue.length === 0) {
      this.closed = true;
      this.to.end();
      return;
    }
    this.queue.push({ kind: 'end' });
  }

  /** Every hold is over now (heal): send what is queued, keeping its order. */
  releaseAll(): void {
    for (const entry of this.queue) if (entry.kind === 'data') entry.notBefore = 0;
    this.pump();
  }

  /** The connection is gone: drop what is queued, telling whoever waits on it. */
  drop(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const entry of this.queue.splice(0)) if (entry.kind !== 'end') entry.sent?.();
  }

  get holding(): boolean {
    return this.queue.length > 0;
  }

  private pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0 && !this.closed) {
      const head = this.queue[0];
      if (head.kind === 'data') {
        const wait = head.notBefore - performance.now();
        if (wait === Infinity) return; // its end is not known yet: pumped again when it is
        if (wait > 0) {
          this.timer = setTimeout(() => this.pump(), Math.ceil(wait));
          return;
        }
        this.queue.shift();
        this.send(head.bytes);
        head.sent?.();
      } else if (head.kind === 'cut') {
        this.queue.shift();
        head.sent();
        this.onCut();
        this.drop();
      } else {
        this.queue.shift();
        this.closed = true;
        this.to.end();
      }
    }
  }

  private send(bytes: Buffer): void {
    if (bytes.length === 0 || this.to.destroyed) return;
    if (!this.to.write(bytes) && !this.waitingForDrain) {
      this.waitingForDrain = true;
      this.from.pause();
      this.to.once('drain', () => {
        this.waitingForDrain = false;
        this.from.resume();
      });
    }
  }
}
