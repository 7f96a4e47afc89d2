import type { Cluster as IORedisCluster } from 'ioredis';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { parseInfo } from '../resp/info.ts';
import { masters, nodeAddress } from './cluster-nodes.ts';
import type { ScriptObserver } from './runner.ts';

/** Milliseconds; 10, 15 and 20 sit either side of the seed's "register_or_get p99 > 15 ms" alert line. */
export const SCRIPT_DURATION_BUCKETS_MS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 20, 50, 100, 250, 1000, 5000];
/** Bytes; 65536 is the stored-body cap, so the "p99 > 64 KB" alert can be read off one bucket. */
export const BODY_BYTES_BUCKETS = [128, 1024, 4096, 16384, 32768, 65536, 131072, 1048576, 4194304];

/**
 * Metrics of one script client, in a Registry of its own (never prom-client's global one) so that
 * several clients in one process do not collide. `prefix` names the client: idempotency, lock, ratelimit.
 */
export class ScriptMetrics {
  readonly registry = new Registry();
  readonly scriptDuration: Histogram<'script'>;
  readonly noscript: Counter<'script'>;
  readonly memoryUsed: Gauge<'node'>;
  readonly memoryMax: Gauge<'node'>;

  constructor(readonly prefix: string) {
    const registers = [this.registry];
    this.scriptDuration = new Histogram({
      name: `${prefix}_script_duration_ms`,
      help: 'Client-observed duration of one script call in milliseconds, NOSCRIPT retry included',
      labelNames: ['script'],
      buckets: SCRIPT_DURATION_BUCKETS_MS,
      registers,
    });
    this.noscript = new Counter({
      name: `${prefix}_noscript_total`,
      help: 'NOSCRIPT (or function-not-found) fallbacks: a reload on the node followed by one retry',
      labelNames: ['script'],
      registers,
    });
    this.memoryUsed = new Gauge({
      name: 'redis_memory_used_bytes',
      help: 'used_memory of each master (INFO memory), as of the last refresh',
      labelNames: ['node'],
      registers,
    });
    this.memoryMax = new Gauge({
      name: 'redis_memory_max_bytes',
      help: 'maxmemory of each master (0 = no limit), as of the last refresh',
      labelNames: ['node'],
      registers,
    });
  }

  /** Feed this to the script runner. */
  observer(): ScriptObserver {
    return {
      onCall: (script, ms) => this.scriptDuration.observe({ script }, ms),
      onNoScript: (script) => this.noscript.inc({ script }),
    };
  }

  /** INFO memory on every master the client knows; replaces the previous figures. */
  async refreshMemory(redis: IORedisCluster): Promise<void> {
    const figures = await Promise.all(
      (await masters(redis)).map(async (node) => ({
        node: nodeAddress(node),
        info: parseInfo(await node.info('memory')),
      })),
    );
    this.memoryUsed.reset();
    this.memoryMax.reset();
    for (const { node, info } of figures) {
      this.memoryUsed.set({ node }, Number(info.used_memory));
      this.memoryMax.set({ node }, Number(info.maxmemory));
    }
  }

  /** Prometheus text exposition of this client's registry. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
