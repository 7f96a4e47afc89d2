// A graceful failover that cannot win its election says why, from the servers' own logs: two of the
// three masters are frozen, so the replica of the third gets no votes (and no master can be marked
// failed, so nothing fails over by itself); the harness asks again until its deadline, then throws
// with the replica's side of INFO replication and each node's last election line.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalCluster } from '../../src/cluster/local.ts';

let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await LocalCluster.start();
}, 60_000);
afterAll(async () => {
  await cluster?.dispose();
});

it('a failover with no votes to win ends in an error quoting the replica and the election lines of the logs', async () => {
  const nodes = (await cluster.topology()).nodes;
  const masters = nodes.filter((n) => n.role === 'master').map((n) => n.node.index);
  expect(masters).toHaveLength(3);
  const [kept, ...frozen] = masters;
  const replica = nodes.find((n) => n.role === 'replica' && n.masterIndex === kept)!;
  for (const m of frozen) await cluster.freeze(m);
  try {
    const error = await cluster.failover(replica.node.index, 'default').then(
      () => undefined,
      (e: Error) => e,
    );
    const name = replica.node.name;
    expect(error?.message).toMatch(new RegExp(`still sees ${name} as .*slave`));
    expect(error?.message).toContain(`${name} reports role slave, master link up`);
    // The replica's own account: it started a manual failover and gave up on it.
    expect(error?.message).toMatch(new RegExp(`${name} log: [^;]*([Ff]ailover|election)`));
  } finally {
    for (const m of frozen) await cluster.thaw(m);
  }
  await cluster.heal();
  expect((await cluster.topology()).nodes.filter((n) => n.role === 'master')).toHaveLength(3);
}, 120_000);
