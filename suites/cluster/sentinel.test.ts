// A primary with two replicas under three Sentinels (src/cluster/sentinel.ts): a client that finds the
// primary through the Sentinels writes where the replicas follow; SENTINEL FAILOVER moves the primary
// and raises the failover epoch the nemesis reads; heal brings back every node following the new
// primary; a killed replica comes back as one; the doors are told of the Sentinels (module:
// options.sentinel, cmd: the hello's sentinel); and after dispose no server it started is alive.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { isAlive } from '../../src/cluster/alive.ts';
import { SentinelCluster } from '../../src/cluster/sentinel.ts';
import { cmdOpener } from '../../src/certify/openers/cmd.ts';
import { moduleOpener } from '../../src/certify/openers/module.ts';
import { lock } from '../../src/patterns/lock/index.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-sentinel-'));
let cluster: SentinelCluster;
let client: Redis;
beforeAll(async () => {
  cluster = await SentinelCluster.start({ seed: 3 });
  client = cluster.sentinelClient({ commandTimeout: 2_000 });
}, 30_000);
afterAll(async () => {
  client?.disconnect();
  await cluster?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

const primaryOf = async () => (await cluster.topology()).nodes.find((n) => n.slots.length > 0)!.node.index;

it('a client through the Sentinels writes to the primary; SENTINEL FAILOVER moves it, the epoch rises, heal has every node follow', async () => {
  expect(String(await cluster.topology())).toBe('sentinel:2 n0 primary <- n1,n2 | 3 sentinels');
  await client.set('sentinel:k', 'v');
  const epoch = await cluster.failoverEpoch();
  await cluster.failover(1, 'default');
  await cluster.heal();
  const primary = await primaryOf();
  expect(primary).not.toBe(0);
  expect(await cluster.failoverEpoch()).toBe(epoch + 1);
  const topology = await cluster.topology();
  expect(topology.nodes.filter((n) => n.role === 'replica').map((n) => n.masterIndex)).toEqual([primary, primary]);
  // Written before the failover, replicated, so the new primary has it; the client follows it there.
  expect(await client.get('sentinel:k')).toBe('v');
  expect(await client.set('sentinel:k2', 'w')).toBe('OK');
}, 60_000);

it('a killed replica comes back as a replica of the current primary', async () => {
  const primary = await primaryOf();
  const replica = [0, 1, 2].find((i) => i !== primary)!;
  await cluster.kill(replica);
  await cluster.restart(replica);
  await cluster.heal();
  expect((await cluster.topology()).nodes[replica]).toMatchObject({ role: 'replica', masterIndex: primary });
  expect(await cluster.command(replica, 'GET', 'sentinel:k')).toBe('v');
}, 60_000);

it('module: gets a client through the Sentinels and options.sentinel; cmd: the hello carries sentinel', async () => {
  const file = path.join(dir, 'store.mjs');
  fs.writeFileSync(
    file,
    `export async function createStore(redis, options) {
      await redis.set('doors:sentinel', JSON.stringify({ name: options.sentinel.name, count: options.sentinel.sentinels.length, mapped: Object.keys(options.sentinel.natMap).length }));
      const no = async () => 0;
      return { acquire: no, release: no, extend: no };
    }\n`,
  );
  const opened = await moduleOpener(lock, file)(cluster, 1);
  await opened.close();
  expect(JSON.parse((await client.get('doors:sentinel'))!)).toEqual({ name: 'chaoslua', count: 3, mapped: 3 });

  const program = path.join(dir, 'program.mjs');
  // Answers the hello with the Sentinels' name and ports as its version, then serves nothing.
  fs.writeFileSync(
    program,
    `import readline from 'node:readline';
    const lines = readline.createInterface({ input: process.stdin });
    lines.once('line', (line) => {
      const { sentinel } = JSON.parse(line);
      const version = sentinel.name + '@' + sentinel.sentinels.map((s) => s.port).join(',');
      process.stdout.write(JSON.stringify({ type: 'hello', protocol: 'chaoslua-process/1', name: 'sentinel', version, patterns: ['lock'] }) + '\\n');
      lines.on('line', (l) => { if (JSON.parse(l).type === 'shutdown') process.exit(0); });
    });\n`,
  );
  const cmd = await cmdOpener(lock, `${JSON.stringify(process.execPath)} ${JSON.stringify(program)}`, {
    stderrFile: path.join(dir, 'stderr.log'),
  })(cluster, 1);
  await cmd.close();
  expect(cmd.impl).toMatch(
    new RegExp(
      `\\(sentinel chaoslua@${cluster
        .sentinels()
        .map((s) => s.port)
        .join(',')}\\)$`,
    ),
  );
});

it('dispose leaves no server it started alive, Sentinels included', async () => {
  const pids = cluster.processes().map((p) => p.pid!);
  expect(pids).toHaveLength(6);
  client.disconnect();
  await cluster.dispose();
  expect(pids.filter(isAlive)).toEqual([]);
});
