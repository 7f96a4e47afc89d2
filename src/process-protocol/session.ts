import fs from 'node:fs';
import { CapabilitiesError, parseCapabilities, type Capabilities } from '../patterns/capabilities.ts';
import type { AnyPattern } from '../patterns/types.ts';
import { KeyMappingError, parseKeyMapping, type KeyMapping } from '../patterns/key-mapping.ts';
import { spawnProgram, type ProgramProcess } from './child.ts';
import { LineSplitter } from './lines.ts';
import type { Durability } from '../plan/durability.ts';
import type { Receipt } from '../plan/durability.ts';
import { RefusedError } from '../plan/refusal.ts';
import {
  ACCEPTED_VERSIONS,
  excerpt,
  parseProgramLine,
  PROTOCOL_VERSION,
  PROTOCOL_VERSION_1_1,
  type Address,
  type HelloMessage,
  type HelloReply,
  type ProgramMessage,
  type RequestMessage,
} from './protocol.ts';

export interface ProcessSessionOptions {
  /** Shell command line of the implementation. */
  readonly command: string;
  readonly pattern: AnyPattern;
  readonly seeds: readonly Address[];
  readonly natMap: Readonly<Record<string, Address>>;
  /** `--topology masters`: each independent master's address, sent in the hello as `masters`. */
  readonly masters?: readonly Address[];
  /** `--topology sentinel`: the Sentinels and the primary's name, sent in the hello as `sentinel`. */
  readonly sentinel?: HelloMessage['sentinel'];
  /** How many logical clients this process serves at once (the hello's options.clients; 1 with a process per client). */
  readonly clients: number;
  /** Where the program's stderr goes (appended). */
  readonly stderrFile: string;
  readonly cwd?: string;
  /** Added to the program's environment (a client's own clock: the preload and its page). */
  readonly env?: Readonly<Record<string, string>>;
  /** Longest wait for the hello reply (the program connects and loads its scripts first). */
  readonly handshakeTimeoutMs: number;
  /** Longest wait for one response before the program counts as hung. */
  readonly requestTimeoutMs: number;
  /** Grace after `shutdown` before the process group is killed. */
  readonly shutdownTimeoutMs: number;
  /** `--durability wait:N:T`, handed to the program in its hello. */
  readonly durability?: Durability;
}

/**
 * Why a request got no answer from the program. The text never starts like a Redis error, so
 * src/runner/classify.ts records the operation as indeterminate: it may have run.
 */
export class ProcessUnavailableError extends Error {
  override readonly name = 'ProcessUnavailableError';
}

interface Pending {
  readonly request: RequestMessage;
  readonly receipt?: Receipt;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

type State = 'starting' | 'ready' | 'broken' | 'closing' | 'closed';

/**
 * One implementation process speaking chaoslua-process/1, shared by every logical client.
 * Requests are multiplexed by id. Anything the program does wrong becomes a finding, the process
 * is killed and every pending or later request rejects at once: the harness never hangs on it.
 */
export class ProcessSession {
  private state: State = 'starting';
  private readonly problems: string[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private lineNo = 0;
  private program?: ProgramProcess;
  private hello?: HelloReply;
  /** What a 1.1 hello declared (undefined: every operation, exactly; the key handed over). */
  capabilities?: Capabilities;
  keys?: KeyMapping;
  private settleHandshake?: (message: ProgramMessage | undefined) => void;
  private readonly exited: Promise<void>;
  private markExited!: () => void;

  private constructor(readonly options: ProcessSessionOptions) {
    this.exited = new Promise((resolve) => (this.markExited = resolve));
  }

  /**
   * Start the program and shake hands. Never throws for the program's faults: a refused or failed
   * handshake leaves a broken session whose findings() say why (the job then fails, exit 1).
   */
  static async open(options: ProcessSessionOptions): Promise<ProcessSession> {
    const session = new ProcessSession(options);
    await session.start();
    return session;
  }

  /** What the program reported about itself, once the handshake succeeded. */
  get implementation(): HelloReply | undefined {
    return this.hello;
  }

  get usable(): boolean {
    return this.state === 'ready';
  }

  findings(): string[] {
    return [...this.problems];
  }

  request(client: number, op: string, key: string, args: Record<string, unknown>, receipt?: Receipt): Promise<unknown> {
    if (this.state !== 'ready')
      return Promise.reject(
        new ProcessUnavailableError(`implementation process unavailable: ${this.problems[0] ?? this.state}`),
      );
    const request: RequestMessage = { type: 'request', id: this.nextId++, client, op, key, args };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          this.fail(
            `hang: no response to request ${request.id} (${op} on ${key}) within ${this.options.requestTimeoutMs} ms`,
          ),
        this.options.requestTimeoutMs,
      );
      this.pending.set(request.id, { request, receipt, resolve, reject, timer });
      this.send(request);
    });
  }

  /**
   * The keys the program keeps a handed key's state under, when its hello declared `keys: { computed:
   * true }`: asked once per key (a request with op `keys`, answered with a list of names), before
   * the key's first call. A wrong answer is a finding, as any malformed declaration is.
   */
  async learnKeys(key: string): Promise<void> {
    const mapping = this.keys;
    if (!mapping?.learn || mapping.knows?.(key)) return;
    const names = await this.request(0, 'keys', key, {});
    try {
      mapping.learn(key, names);
    } catch (error) {
      if (error instanceof KeyMappingError) this.fail(`handshake: ${error.message}`);
      throw error;
    }
  }

  /** Ask the program to exit, then kill its process group if it has not within the grace time. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasRunning = this.state === 'ready' || this.state === 'starting';
    this.state = 'closing';
    this.rejectAll('the harness closed the implementation process');
    if (this.program && wasRunning) {
      this.send({ type: 'shutdown' });
      this.program.child.stdin.end();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, this.options.shutdownTimeoutMs).unref());
      await Promise.race([this.exited, grace]);
    }
    this.program?.release();
    if (this.program) await Promise.race([this.exited, new Promise((r) => setTimeout(r, 1_000).unref())]);
    this.state = 'closed';
  }

  // ---- internals ----------------------------------------------------------------------------

  private async start(): Promise<void> {
    const { options } = this;
    try {
      this.program = spawnProgram(options.command, options.stderrFile, options.cwd, options.env);
    } catch (error) {
      this.fail(`start: could not run ${JSON.stringify(options.command)}: ${(error as Error).message}`);
      this.markExited();
      return;
    }
    const { child } = this.program;
    const splitter = new LineSplitter(
      (line) => this.onLine(line),
      (length) => this.fail(`malformed output: a stdout line grew past ${length} bytes without a newline`),
    );
    child.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
    // A write to a program that already exited: the 'close' handler reports the exit.
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      this.fail(`start: could not run ${JSON.stringify(options.command)}: ${error.message}`);
      if (this.program?.pid === -1) this.markExited(); // never started, so no 'close' will come
    });
    child.on('close', (code, signal) => {
      const rest = splitter.rest();
      if (rest.trim() !== '') this.onLine(rest);
      this.onExit(code, signal);
      this.markExited();
    });

    const hello: HelloMessage = {
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      versions: ACCEPTED_VERSIONS,
      pattern: options.pattern.name,
      seeds: options.seeds,
      natMap: options.natMap,
      ...(options.masters ? { masters: options.masters } : {}),
      ...(options.sentinel ? { sentinel: options.sentinel } : {}),
      operations: Object.entries(options.pattern.operations).map(([name, op]) => ({
        name,
        args: Object.keys(op.args),
        answer: op.answer,
      })),
      options: {
        clients: options.clients,
        requestTimeoutMs: options.requestTimeoutMs,
        ...(options.durability
          ? { durability: { replicas: options.durability.replicas, timeoutMs: options.durability.timeoutMs } }
          : {}),
      },
    };
    const reply = await new Promise<ProgramMessage | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.fail(`handshake: no hello reply within ${options.handshakeTimeoutMs} ms`);
        resolve(undefined);
      }, options.handshakeTimeoutMs);
      this.settleHandshake = (message) => {
        clearTimeout(timer);
        this.settleHandshake = undefined;
        resolve(message);
      };
      this.send(hello);
    });
    if (reply) this.checkHello(reply);
  }

  private checkHello(reply: ProgramMessage): void {
    const { pattern } = this.options;
    const { name } = pattern;
    if (reply.type === 'refuse') return this.fail(`handshake refused by the implementation: ${reply.reason}`);
    if (reply.type !== 'hello')
      return this.fail(`handshake: expected a hello reply, got a ${reply.type} message first`);
    if (!(ACCEPTED_VERSIONS as readonly string[]).includes(reply.protocol)) {
      return this.fail(
        `handshake: the implementation speaks ${JSON.stringify(reply.protocol)}, the harness speaks ${ACCEPTED_VERSIONS.map((v) => JSON.stringify(v)).join(' or ')}`,
      );
    }
    if (!reply.patterns.includes(name)) {
      return this.fail(
        `handshake: the implementation does not support pattern ${name} (it supports: ${reply.patterns.join(', ') || 'none'})`,
      );
    }
    // A 1.0 reply's extra fields are ignored, as the protocol says of unknown fields.
    if (reply.protocol === PROTOCOL_VERSION_1_1) {
      try {
        if (reply.capabilities !== undefined)
          this.capabilities = parseCapabilities(pattern, reply.capabilities, 'hello capabilities');
        if (reply.keys !== undefined) {
          if (typeof reply.keys !== 'object' || reply.keys === null)
            throw new KeyMappingError(
              `hello keys: expected { prefix, suffix }, a list of key templates or { computed: true }, got ${JSON.stringify(reply.keys)}`,
            );
          this.keys = parseKeyMapping(reply.keys, 'hello keys', name);
        }
      } catch (error) {
        if (error instanceof CapabilitiesError || error instanceof KeyMappingError)
          return this.fail(`handshake: ${error.message}`);
        throw error;
      }
    }
    this.hello = reply;
    this.state = 'ready';
  }

  private onLine(line: string): void {
    this.lineNo++;
    if (this.state !== 'starting' && this.state !== 'ready') return; // nothing counts once it is being ended
    if (line.trim() === '') return;
    const parsed = parseProgramLine(line);
    if ('problem' in parsed)
      return this.fail(
        `malformed output: stdout line ${this.lineNo} is ${parsed.problem} (stdout carries protocol messages only; log to stderr)`,
      );
    const message = parsed.message;
    if (this.settleHandshake) return this.settleHandshake(message);
    if (message.type !== 'response')
      return this.fail(`protocol violation: unexpected ${message.type} message after the handshake: ${excerpt(line)}`);
    const pending = this.pending.get(message.id);
    if (!pending) {
      const issued = message.id >= 1 && message.id < this.nextId;
      return this.fail(
        issued
          ? `protocol violation: a second response to request ${message.id}`
          : `protocol violation: response to unknown request id ${message.id}`,
      );
    }
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.ok) {
      if (pending.receipt && message.acknowledgedReplicas !== undefined)
        pending.receipt.acknowledgedReplicas = message.acknowledgedReplicas;
      pending.resolve(message.result);
    }
    // The program's error text as the message: the runner classifies it (classify.ts).
    else pending.reject(message.refused ? new RefusedError(message.error) : new Error(message.error));
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.state !== 'starting' && this.state !== 'ready') return;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const when =
      this.state === 'starting' ? 'before answering the handshake' : `with ${this.pending.size} request(s) in flight`;
    this.fail(`crash: the implementation ${how} ${when}${this.stderrTail()}`);
  }

  /** Record a finding (the first one per session: what follows is a consequence), end the process. */
  private fail(problem: string): void {
    if (this.state !== 'starting' && this.state !== 'ready') return;
    this.problems.push(problem);
    this.state = 'broken';
    this.settleHandshake?.(undefined);
    this.rejectAll(`implementation process unavailable: ${problem}`);
    this.program?.signal('SIGKILL');
  }

  private rejectAll(why: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new ProcessUnavailableError(why));
      this.pending.delete(id);
    }
  }

  private send(message: object): void {
    const stdin = this.program?.child.stdin;
    if (stdin && !stdin.destroyed && stdin.writable) stdin.write(JSON.stringify(message) + '\n');
  }

  /** The last lines the program wrote to stderr, to make a crash finding self-explanatory. */
  private stderrTail(): string {
    let text = '';
    try {
      text = fs.readFileSync(this.options.stderrFile, 'utf8');
    } catch {
      return '';
    }
    const lines = text
      .trimEnd()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(-3);
    if (!lines.length) return ` (stderr: ${this.options.stderrFile}, empty)`;
    return `; stderr (${this.options.stderrFile}) ends: ${lines.map((l) => l.slice(0, 200)).join(' | ')}`;
  }
}
