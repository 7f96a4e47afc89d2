import { Redis } from 'ioredis';

/**
 * Control-plane connections straight to each redis-server (never through a proxy, so toxics
 * never block the harness's own view). One connection per address, dropped on any error so a
 * killed or frozen node never wedges the next call.
 */
export class AdminPool {
  private readonly connections = new Map<string, Redis>();

  constructor(private readonly timeoutMs = 2_000) {}

  private connection(host: string, port: number): Redis {
    const address = `${host}:${port}`;
    let redis = this.connections.get(address);
    if (!redis) {
      redis = new Redis({
        host,
        port,
        lazyConnect: true,
        connectTimeout: this.timeoutMs,
        commandTimeout: this.timeoutMs,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: true,
        retryStrategy: () => null,
      });
      redis.on('error', () => undefined);
      this.connections.set(address, redis);
    }
    return redis;
  }

  async call(host: string, port: number, args: readonly (string | number)[]): Promise<unknown> {
    const redis = this.connection(host, port);
    try {
      if (redis.status === 'wait') await redis.connect();
      const [command, ...rest] = args;
      return await redis.call(String(command), ...rest.map(String));
    } catch (error) {
      this.drop(`${host}:${port}`);
      throw error;
    }
  }

  drop(address: string): void {
    this.connections.get(address)?.disconnect();
    this.connections.delete(address);
  }

  close(): void {
    for (const address of [...this.connections.keys()]) this.drop(address);
  }
}
