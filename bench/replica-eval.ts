// Not a timing: a probe of what Redis 7 answers on a replica for the scripts' kind of EVAL, behind the
// lock soak history in bench/results/hard/lock-soak-seed20261202-replica-read.json. ioredis opens its
// replica connections with READONLY; on such a connection a script without a shebang runs (reads are
// served, the first write fails with READONLY ... on @user_script:N), while `#!lua` makes it a write
// command that the replica redirects (MOVED). Run: npx tsx bench/replica-eval.ts
import { LocalCluster } from '../src/cluster/local.ts';
import { Redis } from 'ioredis';
await using cluster = await LocalCluster.start();
const admin = cluster.connect();
const key = 'probe:{k0}';
await admin.set(key, 'held');
await new Promise((r) => setTimeout(r, 300));
const nodes = String(await admin.cluster('NODES'))
  .trim()
  .split('\n')
  .map((l) => l.split(' '));
const slot = Number(await admin.cluster('KEYSLOT', key));
const master = nodes.find(
  (n) =>
    n[2].includes('master') &&
    n.slice(8).some((r) => {
      const [a, b] = r.split('-').map(Number);
      return slot >= a && slot <= (b ?? a);
    }),
)!;
const replica = nodes.find((n) => n[3] === master[0])!;
console.log('master', master[1], 'replica', replica[1]);
const [host, port] = replica[1].split('@')[0].split(':');
const r = new Redis({ host, port: Number(port), lazyConnect: true });
await r.connect();
const show = async (label: string, f: () => Promise<unknown>) => {
  try {
    console.log(label, '->', await f());
  } catch (e) {
    console.log(label, '-> error', (e as Error).message);
  }
};
await show('plain GET on replica, no READONLY', () => r.get(key));
await r.readonly();
await show('READONLY: GET', () => r.get(key));
await show('READONLY: EVAL read, no shebang', () => r.eval("return redis.call('GET', KEYS[1])", 1, key));
await show('READONLY: EVAL write, no shebang', () =>
  r.eval("local v = redis.call('GET', KEYS[1])\nredis.call('SET', KEYS[1], 'x')\nreturn v", 1, key),
);
await show('READONLY: EVAL read, #!lua shebang', () => r.eval("#!lua\nreturn redis.call('GET', KEYS[1])", 1, key));
await show('READONLY: EVAL read, #!lua flags=no-writes', () =>
  r.eval("#!lua flags=no-writes\nreturn redis.call('GET', KEYS[1])", 1, key),
);
r.disconnect();
admin.disconnect();
