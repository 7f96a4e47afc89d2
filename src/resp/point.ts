import net from 'node:net';
import { keySlot } from './key-slot.ts';
import { firstKey } from './commands.ts';
import { ProxiedConnection, type RuleBook } from './connection.ts';
import { ArmedRule, type Catch, type CommandRule } from './rules.ts';

/**
 * A client resends a command whose reply it lost (ioredis does on reconnect, within its retry delay).
 * Cutting the resend too would run one operation three times, more than a cut connection can explain
 * (the checker allows one extra run): a command with the same name and key as one whose reply was
 * lost is not lost again for this long.
 */
const RESEND_GUARD_MS = 2_000;

interface TouchWaiter {
  readonly key: string;
  readonly after: number;
  readonly connection: number;
  readonly resolve: (at: number) => void;
}

export interface Address {
  readonly host: string;
  readonly port: number;
}

/** Command-aware faults on a cluster's client links (what the nemesis drives). */
export interface CommandFaults {
  /** Arm a rule on every client link; it catches commands until disarmed or its limit is reached. */
  arm(rule: CommandRule): ArmedRule;
  /** Names (rule names) of the data commands the client links have carried so far, sorted. */
  observedNames(): string[];
  /** How many commands of each of those names went by. */
  observedCounts(): ReadonlyMap<string, number>;
  /** Disarm every rule and end every hold now; cuts already decided still happen. */
  reset(): void;
}

/** One node's RESP point: a TCP listener that forwards each connection to the node's client link. */
class RespPoint {
  readonly connections = new Set<ProxiedConnection>();

  private constructor(
    readonly node: string,
    private readonly server: net.Server,
    readonly address: Address,
  ) {}

  static async listen(
    node: string,
    port: number,
    upstream: Address,
    book: RuleBook,
    nextId: () => number,
  ): Promise<RespPoint> {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const point = new RespPoint(node, server, { host: '127.0.0.1', port: (server.address() as net.AddressInfo).port });
    server.on('connection', (client) => {
      const up = net.connect(upstream.port, upstream.host);
      const connection = new ProxiedConnection(nextId(), node, client, up, book, (c) => point.connections.delete(c));
      point.connections.add(connection);
    });
    return point;
  }

  close(): Promise<void> {
    for (const c of this.connections) c.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The RESP points of a cluster, one in front of each node's client link (a Toxiproxy proxy), and
 * the rules armed on them. Clients dial these (ioredis natMap), so every implementation — lua:,
 * module: or cmd: — has its commands pass through them.
 */
export class RespPoints implements CommandFaults, RuleBook {
  private readonly rules = new Set<ArmedRule>();
  private readonly names = new Map<string, number>();
  private readonly waiters = new Set<TouchWaiter>();
  /** `name key` -> when a lost reply cut it: its resend is not cut again (see RESEND_GUARD_MS). */
  private readonly lost = new Map<string, number>();
  private connections = 0;

  private readonly points: RespPoint[] = [];

  private constructor() {}

  /** One point per node, in node order, listening on `listen` (0: any free port) and forwarding to the node's `address`. */
  static async start(
    upstreams: readonly { readonly node: string; readonly listen: number; readonly address: Address }[],
  ): Promise<RespPoints> {
    const book = new RespPoints();
    try {
      for (const u of upstreams)
        book.points.push(await RespPoint.listen(u.node, u.listen, u.address, book, () => ++book.connections));
    } catch (error) {
      await book.close();
      throw error;
    }
    return book;
  }

  /** Where a client dials node `index`. */
  address(index: number): Address {
    return this.points[index].address;
  }

  get armed(): boolean {
    for (const rule of this.rules) if (rule.active) return true;
    return false;
  }

  get watching(): boolean {
    return this.waiters.size > 0;
  }

  answered(key: string, connection: number): void {
    const now = performance.now();
    for (const w of this.waiters) {
      if (w.key === key && w.connection !== connection && now >= w.after) {
        this.waiters.delete(w);
        w.resolve(now);
      }
    }
  }

  private touchedAfter(key: string, after: number, connection: number, deadline: number): Promise<number> {
    return new Promise((resolve) => {
      const waiter: TouchWaiter = {
        key,
        after,
        connection,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
      const timer = setTimeout(
        () => {
          this.waiters.delete(waiter);
          resolve(deadline);
        },
        Math.max(0, deadline - performance.now()),
      );
      this.waiters.add(waiter);
    });
  }

  observe(name: string): void {
    this.names.set(name, (this.names.get(name) ?? 0) + 1);
  }

  tryCatch(node: string, connection: number, name: string, args: readonly (Buffer | null)[]): Catch | undefined {
    const key = () => firstKey(name, args);
    for (const rule of this.rules) {
      const losing = rule.rule.action === 'lose-reply';
      const id = losing ? `${name} ${key()?.toString('latin1') ?? ''}` : '';
      if (losing && performance.now() - (this.lost.get(id) ?? -Infinity) < RESEND_GUARD_MS) continue;
      const c = rule.tryCatch(
        node,
        connection,
        name,
        () => {
          const k = key();
          return k === undefined ? undefined : keySlot(k);
        },
        key,
        (...a) => this.touchedAfter(...a),
      );
      if (c && losing) this.lost.set(id, performance.now());
      if (c) return c;
    }
    return undefined;
  }

  arm(rule: CommandRule): ArmedRule {
    // Rules that can catch nothing more leave the book; what they caught plays out on its connection.
    for (const old of this.rules) if (!old.active) this.rules.delete(old);
    const armed = new ArmedRule(rule);
    this.rules.add(armed);
    return armed;
  }

  observedNames(): string[] {
    return [...this.names.keys()].sort();
  }

  observedCounts(): ReadonlyMap<string, number> {
    return this.names;
  }

  reset(): void {
    for (const rule of this.rules) rule.disarm();
    this.rules.clear();
    for (const w of this.waiters) w.resolve(performance.now());
    this.waiters.clear();
    for (const point of this.points) for (const c of point.connections) c.release();
  }

  /** Client connections open now, over every point. */
  get openConnections(): number {
    return this.points.reduce((n, p) => n + p.connections.size, 0);
  }

  async close(): Promise<void> {
    this.reset();
    await Promise.all(this.points.map((p) => p.close()));
  }
}
