import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cluster as IORedisCluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { IDEMPOTENCY_SCRIPTS } from '../../src/patterns/idempotency/calls.ts';
import { IdempotencyStore } from '../../src/patterns/idempotency/client.ts';
import { scopedKey } from '../../src/patterns/idempotency/keys.ts';
import { keySlot } from '../../src/resp/key-slot.ts';
import { parseInfo } from '../../src/resp/info.ts';
import { projectScriptsDir } from '../../src/scripts/paths.ts';
import { NoScriptAfterReloadError, ScriptLoadError } from '../../src/scripts/errors.ts';
import { MissingScriptError, sha1Hex, type ScriptSource } from '../../src/scripts/source.ts';
import { EvalshaRunner } from '../../src/scripts/runner.ts';

// The loader's NOSCRIPT handling on a real cluster: per-node caches, one retry, never a loop.

let cluster: LocalCluster;
let redis: IORedisCluster;
/** keysByMaster[i]: a scoped key served by the i-th master (node index masterNodes[i]). */
let masterNodes: number[];
let keysByMaster: string[];
const scriptsDir = projectScriptsDir('idempotency');
const registerBody = readFileSync(join(scriptsDir, 'register_or_get.lua'));
const registerSha = sha1Hex(registerBody);

async function scriptCachedOn(node: number, sha: string): Promise<boolean> {
  return ((await cluster.command(node, 'SCRIPT', 'EXISTS', sha)) as number[])[0] === 1;
}

function noscriptCount(metricsText: string, script: string): number {
  const line = metricsText.split('\n').find((l) => l.startsWith(`idempotency_noscript_total{script="${script}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

beforeAll(async () => {
  cluster = await sharedCluster();
  redis = cluster.connect();
  const masters = (await cluster.topology()).nodes.filter((n) => n.role === 'master');
  masterNodes = masters.map((m) => m.node.index);
  keysByMaster = masters.map((m, i) => {
    for (let n = 0; ; n++) {
      const key = scopedKey('t', 'noscript', `m${i}-${n}`);
      if (m.slots.some(([from, to]) => keySlot(key) >= from && keySlot(key) <= to)) return key;
    }
  });
});

afterAll(async () => {
  await redis?.quit();
});

describe('script loader on a cluster', () => {
  it('after SCRIPT FLUSH on every node, counts exactly one NOSCRIPT per node that is then called, and loads only there', async () => {
    const store = await IdempotencyStore.open(redis);
    expect(masterNodes).toHaveLength(3);
    for (const node of masterNodes) expect(await scriptCachedOn(node, registerSha)).toBe(true);
    await store.registerOrGet(keysByMaster[0], 'fp', 'warm');
    await store.registerOrGet(keysByMaster[1], 'fp', 'warm');
    expect(noscriptCount(await store.metricsText(), 'register_or_get')).toBe(0);

    await cluster.scriptFlush();
    for (const node of masterNodes) expect(await scriptCachedOn(node, registerSha)).toBe(false);

    // Masters 0 and 1 are called twice each; master 2 is not called.
    for (const key of [keysByMaster[0], keysByMaster[1], keysByMaster[0], keysByMaster[1]]) {
      expect((await store.registerOrGet(key, 'fp', 'after-flush')).kind).toBe('hit');
    }
    expect(store.noscriptFallbacks).toBe(2);
    expect(noscriptCount(await store.metricsText(), 'register_or_get')).toBe(2);
    expect(await scriptCachedOn(masterNodes[0], registerSha)).toBe(true);
    expect(await scriptCachedOn(masterNodes[1], registerSha)).toBe(true);
    expect(await scriptCachedOn(masterNodes[2], registerSha)).toBe(false);

    expect((await store.registerOrGet(keysByMaster[2], 'fp', 'after-flush')).kind).toBe('fresh');
    expect(noscriptCount(await store.metricsText(), 'register_or_get')).toBe(3);
    expect(noscriptCount(await store.metricsText(), 'complete')).toBe(0);
  });

  it('a second NOSCRIPT in a row is a NoScriptAfterReloadError after exactly two EVALSHA, and the script never ran', async () => {
    // An honest way to miss twice: the caller expects a digest the body does not hash to
    // (e.g. a script edited after its SHA was pinned). SCRIPT LOAD caches the body under its real SHA.
    const pinned = sha1Hex(Buffer.concat([registerBody, Buffer.from('\n-- edited after pinning\n')]));
    const script: ScriptSource = {
      name: 'register_or_get',
      body: registerBody,
      sha: pinned,
      origin: 'register_or_get.lua (pinned digest)',
    };
    const runner = new EvalshaRunner(redis, [script]);
    const key = keysByMaster[1];
    await redis.del(key);
    await cluster.command(masterNodes[1], 'CONFIG', 'RESETSTAT');

    const error = await runner.call('register_or_get', key, ['fp', 'owner', 60_000]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoScriptAfterReloadError);
    expect((error as NoScriptAfterReloadError).loadedSha).toBe(registerSha);
    expect((error as Error).message).toContain(`Redis hashed the body to ${registerSha}, not ${pinned}`);
    expect(runner.fallbacks).toBe(1);

    const stats = parseInfo(String(await cluster.command(masterNodes[1], 'INFO', 'commandstats')));
    expect(stats.cmdstat_evalsha).toMatch(/^calls=2,.*failed_calls=2$/);
    expect(await redis.exists(key)).toBe(0);
  });

  it("runs the scripts of the directory it is given (certify --impl lua:DIR), not the project's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chaoslua-impl-'));
    try {
      for (const name of IDEMPOTENCY_SCRIPTS)
        writeFileSync(join(dir, `${name}.lua`), readFileSync(join(scriptsDir, `${name}.lua`)));
      // A known bug: complete without the owner check lets a stale attempt overwrite the new owner's response.
      writeFileSync(
        join(dir, 'complete.lua'),
        "redis.call('HSET', KEYS[1], 'state', 'completed', 'status', ARGV[2], 'body', ARGV[3])\nredis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))\nreturn 1\n",
      );
      const buggy = await IdempotencyStore.open(redis, { scriptsDir: dir });
      const key = scopedKey('t', 'impl', `k-${Date.now()}`);
      await buggy.registerOrGet(key, 'fp', 'owner-1');
      expect(await buggy.complete(key, 'owner-2', { status: 200, body: 'stale' })).toBe(true);
      expect(await redis.hget(key, 'body')).toBe('stale');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a script that does not compile when the client opens, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chaoslua-impl-'));
    try {
      for (const name of IDEMPOTENCY_SCRIPTS)
        writeFileSync(join(dir, `${name}.lua`), readFileSync(join(scriptsDir, `${name}.lua`)));
      writeFileSync(join(dir, 'renew.lua'), 'if then return 1\n');
      const error = await IdempotencyStore.open(redis, { scriptsDir: dir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ScriptLoadError);
      expect((error as Error).message).toMatch(/renew\.lua.*Error compiling script/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists every missing script of a directory at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chaoslua-impl-'));
    try {
      writeFileSync(join(dir, 'complete.lua'), 'return 1\n');
      const error = await IdempotencyStore.open(redis, { scriptsDir: dir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MissingScriptError);
      expect((error as MissingScriptError).missing).toEqual(['register_or_get', 'release', 'renew']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('after a failover the promoted replica has a cold cache: one NOSCRIPT, loaded there, and the call succeeds', async () => {
    const store = await IdempotencyStore.open(redis);
    const key = keysByMaster[0];
    await store.registerOrGet(key, 'fp', 'before-failover');
    const replica = (await cluster.topology()).nodes.find(
      (n) => n.role === 'replica' && n.masterIndex === masterNodes[0],
    );
    expect(replica).toBeDefined();
    expect(await scriptCachedOn(replica!.node.index, registerSha)).toBe(false);

    await cluster.failover(replica!.node.index, 'default');
    // The client still routes the slot to the old master: EVALSHA meets MOVED, then NOSCRIPT on the new one.
    expect(await store.registerOrGet(key, 'fp', 'after-failover')).toMatchObject({ kind: 'hit', state: 'pending' });
    expect(store.noscriptFallbacks).toBe(1);
    expect(await scriptCachedOn(replica!.node.index, registerSha)).toBe(true);
  });
});
