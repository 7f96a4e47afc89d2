import type { Cluster as IORedisCluster } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { keySlot } from '../../../src/resp/key-slot.ts';
import { NoScriptAfterReloadError, ScriptDigestMismatchError } from '../../../src/scripts/errors.ts';
import { scriptFromBody, sha1Hex, type ScriptSource } from '../../../src/scripts/source.ts';
import { EvalshaRunner } from '../../../src/scripts/runner.ts';

/** A stand-in for ioredis Cluster with one script cache per node: just enough to watch the fallback. */
class FakeNode {
  readonly cache = new Set<string>();
  loads = 0;
  constructor(readonly options: { host: string; port: number }) {}
  async script(_sub: 'LOAD', body: Buffer): Promise<string> {
    this.loads++;
    const sha = sha1Hex(body);
    this.cache.add(sha);
    return sha;
  }
}

class FakeCluster {
  status = 'ready';
  readonly slots: string[][] = [];
  evalshaCalls = 0;
  failWith: Error | undefined;
  constructor(
    readonly nodesList: FakeNode[],
    readonly options: { natMap?: Record<string, { host: string; port: number }> } = {},
  ) {}
  /** Slots 0-8191 on the first node, the rest on the second; `announced` keys as CLUSTER SLOTS would give them. */
  assign(keys: [string, string]): void {
    for (let s = 0; s < 16384; s++) this.slots[s] = [s < 8192 ? keys[0] : keys[1]];
  }
  nodes(): FakeNode[] {
    return this.nodesList;
  }
  async ping(): Promise<string> {
    return 'PONG';
  }
  async evalsha(sha: string, _n: number, key: string): Promise<unknown> {
    this.evalshaCalls++;
    if (this.failWith) throw this.failWith;
    const node = this.serving(key);
    if (!node.cache.has(sha)) throw new Error('NOSCRIPT No matching script. Please use EVAL.');
    return `ran on ${node.options.port}`;
  }
  serving(key: string): FakeNode {
    return keySlot(key) < 8192 ? this.nodesList[0] : this.nodesList[1];
  }
}

function setup(natMapped = false) {
  const nodes = [new FakeNode({ host: '127.0.0.1', port: 7000 }), new FakeNode({ host: '127.0.0.1', port: 7001 })];
  const natMap = natMapped
    ? { '10.0.0.1:6379': { host: '127.0.0.1', port: 7000 }, '10.0.0.2:6379': { host: '127.0.0.1', port: 7001 } }
    : undefined;
  const cluster = new FakeCluster(nodes, { natMap });
  cluster.assign(natMapped ? ['10.0.0.1:6379', '10.0.0.2:6379'] : ['127.0.0.1:7000', '127.0.0.1:7001']);
  return { nodes, cluster };
}

const keyOnFirst = 'hello'; // slot 866
const keyOnSecond = 'foo'; // slot 12182

function runner(cluster: FakeCluster, scripts: ScriptSource[], events: string[] = []) {
  return new EvalshaRunner(cluster as unknown as IORedisCluster, scripts, {
    onNoScript: (s) => events.push(`noscript ${s}`),
    onCall: (s) => events.push(`call ${s}`),
  });
}

describe('EvalshaRunner', () => {
  const script = scriptFromBody('register_or_get', "return 'x'");

  it('calls by SHA with no fallback when the node has the script', async () => {
    const { nodes, cluster } = setup();
    nodes[0].cache.add(script.sha);
    const events: string[] = [];
    expect(await runner(cluster, [script], events).call('register_or_get', keyOnFirst, [])).toBe('ran on 7000');
    expect(events).toEqual(['call register_or_get']);
    expect(nodes[0].loads + nodes[1].loads).toBe(0);
  });

  it("on NOSCRIPT loads on the key's master only, retries once, and counts one fallback", async () => {
    const { nodes, cluster } = setup();
    const events: string[] = [];
    const r = runner(cluster, [script], events);
    expect(await r.call('register_or_get', keyOnSecond, [])).toBe('ran on 7001');
    expect([nodes[0].loads, nodes[1].loads]).toEqual([0, 1]);
    expect(cluster.evalshaCalls).toBe(2);
    expect(r.fallbacks).toBe(1);
    expect(events).toEqual(['noscript register_or_get', 'call register_or_get']);
    await r.call('register_or_get', keyOnSecond, []);
    expect(r.fallbacks).toBe(1);
  });

  it('finds the master through natMap when the slot table holds announced addresses', async () => {
    const { nodes, cluster } = setup(true);
    expect(await runner(cluster, [script]).call('register_or_get', keyOnFirst, [])).toBe('ran on 7000');
    expect([nodes[0].loads, nodes[1].loads]).toEqual([1, 0]);
  });

  it('loads on every master when it cannot tell which one serves the slot', async () => {
    const { nodes, cluster } = setup();
    cluster.slots.length = 0;
    await runner(cluster, [script]).call('register_or_get', keyOnFirst, []);
    expect([nodes[0].loads, nodes[1].loads]).toEqual([1, 1]);
  });

  it('raises NoScriptAfterReloadError on a second NOSCRIPT in a row instead of looping', async () => {
    const { cluster } = setup();
    const wrong: ScriptSource = { ...script, sha: sha1Hex('some other body') };
    const r = runner(cluster, [wrong]);
    const error = await r.call('register_or_get', keyOnFirst, []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoScriptAfterReloadError);
    expect((error as Error).message).toContain(`Redis hashed the body to ${script.sha}, not ${wrong.sha}`);
    expect(cluster.evalshaCalls).toBe(2);
    expect(r.fallbacks).toBe(1);
  });

  it('passes every other error through unchanged', async () => {
    const { cluster } = setup();
    const original = new Error('BUSY Redis is busy running a script.');
    cluster.failWith = original;
    const r = runner(cluster, [script]);
    await expect(r.call('register_or_get', keyOnFirst, [])).rejects.toBe(original);
    expect(r.fallbacks).toBe(0);
  });

  it('prepare() loads everything on every master and refuses a body whose digest differs', async () => {
    const { nodes, cluster } = setup();
    await runner(cluster, [script]).prepare();
    expect(nodes.every((n) => n.cache.has(script.sha))).toBe(true);
    const wrong: ScriptSource = { ...script, sha: sha1Hex('other') };
    await expect(runner(cluster, [wrong]).prepare()).rejects.toBeInstanceOf(ScriptDigestMismatchError);
  });

  it('refuses an unknown script name, listing the known ones', async () => {
    const { cluster } = setup();
    await expect(runner(cluster, [script]).call('nope', keyOnFirst, [])).rejects.toThrow(/have: register_or_get/);
  });
});
