import type { Socket } from 'node:net';
import { breaksPairing, firstKey, isDataCommand, ruleName } from './commands.ts';
import { Outbox } from './outbox.ts';
import type { Catch } from './rules.ts';
import { RespSplitter } from './splitter.ts';

/** What a connection asks of the rules armed on its RESP point. */
export interface RuleBook {
  /** True while some rule may still catch a command (the fast path skips the rest otherwise). */
  readonly armed: boolean;
  /** A data command went by (its rule name). */
  observe(name: string): void;
  /** True while some hold waits for another client to touch a key. */
  readonly watching: boolean;
  /** A command on `key` sent on `connection` has been answered (Redis ran it). */
  answered(key: string, connection: number): void;
  tryCatch(node: string, connection: number, name: string, args: readonly (Buffer | null)[]): Catch | undefined;
}

/** What Redis answers every command while a script runs past its time limit. */
const BUSY_REPLY = Buffer.from(
  '-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n',
);

/**
 * One client connection through a RESP point and its connection upstream. Every command the client
 * sends is counted, and every reply that comes back is paired with the oldest unanswered command
 * (Redis answers a connection's commands in order), so a rule can hold the forwarding of one
 * command, hold its reply, or cut the connection just before its reply — and each direction keeps
 * its order.
 */
export class ProxiedConnection {
  private readonly requests = new RespSplitter('request');
  private readonly replies = new RespSplitter('reply');
  private sent = 0;
  private answered = 0;
  /** Reply-side catches, by the sequence number of the command they answer. */
  private readonly caught = new Map<number, Catch>();
  /** Commands refused (never sent upstream), by sequence number: answered BUSY in their turn. */
  private readonly refused = new Map<number, Catch>();
  /** Keys of commands not yet answered, by sequence number, kept while rules are armed or holds watch keys. */
  private readonly keys = new Map<number, string>();
  /** Replies still answer commands one to one (not after SUBSCRIBE or MONITOR, or a stream we could not read). */
  private paired = true;
  private readonly toUpstream: Outbox;
  private readonly toClient: Outbox;
  private closed = false;

  constructor(
    readonly id: number,
    readonly node: string,
    private readonly client: Socket,
    private readonly upstream: Socket,
    private readonly book: RuleBook,
    private readonly onClosed: (connection: ProxiedConnection) => void,
  ) {
    this.toUpstream = new Outbox(upstream, client, () => undefined);
    this.toClient = new Outbox(client, upstream, () => {
      // A lost reply: the client gets an orderly close after every earlier reply, Redis a closed connection.
      this.client.end();
      this.upstream.destroy();
    });
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on('data', (chunk: Buffer) => this.fromClient(chunk));
    upstream.on('data', (chunk: Buffer) => this.fromUpstream(chunk));
    client.on('end', () => this.toUpstream.end());
    upstream.on('end', () => this.toClient.end());
    // A reset on one side (Toxiproxy's reset_peer, a disabled proxy) resets the other.
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => this.sideClosed());
    upstream.on('close', () => this.sideClosed());
  }

  private fromClient(chunk: Buffer): void {
    if (this.closed) return;
    if (!this.paired) return this.toUpstream.write(chunk);
    const boundaries = this.requests.push(chunk);
    let from = 0;
    let start = 0;
    let notBefore: number | Promise<number> = 0;
    let sent: (() => void) | undefined;
    for (const b of boundaries) {
      const seq = this.sent++;
      const name = b.args[0] ? ruleName(b.args[0].toString('latin1')) : '';
      if (isDataCommand(name)) this.book.observe(name);
      if (breaksPairing(name, b.args)) this.unpair();
      else if (this.book.armed || this.book.watching) {
        const key = firstKey(name, b.args);
        if (key) this.keys.set(seq, key.toString('latin1'));
      }
      if (this.paired && this.book.armed) {
        const c = this.book.tryCatch(this.node, this.id, name, b.args);
        if (c?.action === 'refuse') {
          // Redis never sees it: what came before leaves as it would, its bytes are dropped, and the
          // client is answered BUSY once every command before it has been answered.
          this.toUpstream.write(chunk.subarray(from, start), notBefore, sent);
          from = b.end;
          notBefore = 0;
          sent = undefined;
          this.keys.delete(seq);
          this.refused.set(seq, c);
        } else if (c?.action === 'delay-request') {
          // Everything before the command leaves as it would; the command and all behind it wait.
          this.toUpstream.write(chunk.subarray(from, start), notBefore, sent);
          from = start;
          notBefore = c.until;
          sent = c.done;
        } else if (c) this.caught.set(seq, c);
      }
      start = b.end;
    }
    if (this.requests.lost) this.unpair();
    this.toUpstream.write(chunk.subarray(from), notBefore, sent);
    if (this.refused.size > 0) this.answerRefused();
  }

  /** The BUSY answers of refused commands whose turn it is (every command before them answered). */
  private answerRefused(): void {
    for (let c = this.refused.get(this.answered); c !== undefined; c = this.refused.get(this.answered)) {
      this.refused.delete(this.answered++);
      this.toClient.write(BUSY_REPLY, 0, c.done);
    }
  }

  private fromUpstream(chunk: Buffer): void {
    if (this.closed) return;
    if (!this.paired) return this.toClient.write(chunk);
    const boundaries = this.replies.push(chunk);
    let from = 0;
    let start = 0;
    let notBefore: number | Promise<number> = 0;
    let sent: (() => void) | undefined;
    for (const b of boundaries) {
      if (!b.push) {
        if (this.refused.size > 0 && this.refused.has(this.answered)) {
          // Refused commands sent before this reply's command are answered first, in order.
          this.toClient.write(chunk.subarray(from, start), notBefore, sent);
          from = start;
          notBefore = 0;
          sent = undefined;
          this.answerRefused();
        }
        const c = this.caught.size > 0 ? this.caught.get(this.answered) : undefined;
        if (this.keys.size > 0) {
          const key = this.keys.get(this.answered);
          if (key !== undefined) {
            this.keys.delete(this.answered);
            if (this.book.watching) this.book.answered(key, this.id);
          }
        }
        this.answered++;
        if (c) {
          this.caught.delete(this.answered - 1);
          this.toClient.write(chunk.subarray(from, start), notBefore, sent);
          if (c.action === 'lose-reply') {
            // The command ran; its reply and everything after it never reach the client.
            this.toClient.cut(c.done);
            return;
          }
          from = start;
          notBefore = c.until;
          sent = c.done;
        }
      }
      start = b.end;
    }
    if (this.replies.lost) this.unpair();
    this.toClient.write(chunk.subarray(from), notBefore, sent);
    if (this.refused.size > 0) this.answerRefused();
  }

  /** Replies no longer pair with commands: forward both ways as they come, catch nothing more here. */
  private unpair(): void {
    this.paired = false;
    this.keys.clear();
    this.answerRefused();
    for (const c of this.caught.values()) c.done();
    this.caught.clear();
  }

  /** Every hold ends now (heal); decided cuts still happen, in order. */
  release(): void {
    this.answerRefused();
    for (const c of this.caught.values()) c.done();
    this.caught.clear();
    this.toUpstream.releaseAll();
    this.toClient.releaseAll();
  }

  /** Close both sides now (the point is shutting down). */
  destroy(): void {
    this.client.destroy();
    this.upstream.destroy();
  }

  /** Once either side is closed nothing more can pass: close the other, settle every catch. */
  private sideClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.destroy();
    this.toUpstream.drop();
    this.toClient.drop();
    for (const c of [...this.caught.values(), ...this.refused.values()]) c.done();
    this.caught.clear();
    this.refused.clear();
    this.onClosed(this);
  }
}
