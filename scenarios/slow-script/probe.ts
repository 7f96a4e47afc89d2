import { Redis } from 'ioredis';

/** A connection that never reconnects or resends: a command cut off by SHUTDOWN must not run again. */
export function oneShotConnection(address: string): Redis {
  const [host, port] = address.split(':');
  const redis = new Redis({
    host,
    port: Number(port),
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: false,
    // The ready check sends INFO, which a busy server refuses: connect must not depend on it.
    enableReadyCheck: false,
    lazyConnect: true,
  });
  redis.on('error', () => undefined);
  return redis;
}

export interface ProbeReport {
  readonly samples: number;
  readonly maxMs: number;
  readonly medianMs: number;
  readonly busy: number;
  readonly otherErrors: number;
}

/**
 * An unrelated client: PING, then 1 ms of think time, again and again. A PING sent while a script
 * runs waits for the script, so its latency is the script's remaining runtime; past lua-time-limit
 * the server answers BUSY at once instead.
 */
export class PingProbe {
  private readonly latencies: number[] = [];
  private busy = 0;
  private otherErrors = 0;
  private stopped = false;
  private loop?: Promise<void>;
  firstBusyAt?: number;

  constructor(private readonly redis: Redis) {}

  async start(): Promise<this> {
    await this.redis.connect();
    this.loop = this.run();
    return this;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const sent = performance.now();
      try {
        await this.redis.ping();
        this.latencies.push(performance.now() - sent);
      } catch (error) {
        if (/^BUSY/.test((error as Error).message)) {
          this.busy++;
          this.firstBusyAt ??= performance.now();
        } else this.otherErrors++;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  private report?: ProbeReport;

  /** Idempotent: a second stop returns the first report. */
  async stop(): Promise<ProbeReport> {
    if (this.report) return this.report;
    this.stopped = true;
    await this.loop;
    this.redis.disconnect();
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    this.report = {
      samples: sorted.length,
      maxMs: round(sorted.at(-1) ?? 0),
      medianMs: round(sorted[Math.floor(sorted.length / 2)] ?? 0),
      busy: this.busy,
      otherErrors: this.otherErrors,
    };
    return this.report;
  }
}
