import { LocalCluster } from '../cluster/local.ts';
import { intFlag, parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { processIo, type Io } from './io.ts';
import { NODE_TIMEOUT_MS } from '../plan/node-timeout.ts';

export const HELP = `usage: chaoslua cluster up [options]

Start a local Redis Cluster (every node behind Toxiproxy), print "ready <seed host:port>" and the
node table, and keep it up until Ctrl-C or SIGTERM; then tear everything down.

options:
  --masters N        masters (default 3)
  --replicas N       replicas per master (default 1)
  --node-timeout MS  cluster-node-timeout in ms (default ${NODE_TIMEOUT_MS.default})
  --seed N           Toxiproxy seed (default 1)
  -h, --help         this text
${helpFooter('cluster')}`;

export const FLAGS = {
  masters: { type: 'string' },
  replicas: { type: 'string' },
  'node-timeout': { type: 'string' },
  seed: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const summary = 'start a local cluster behind Toxiproxy and keep it up until Ctrl-C';

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '-h' || sub === '--help') {
    io.stdout.write(HELP);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  if (sub !== 'up') throw new UsageError(`cluster: unknown subcommand '${sub}' (expected 'up')`);
  const { values } = parse('cluster up', rest, FLAGS);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  const cluster = await LocalCluster.start({
    masters: intFlag('cluster up', 'masters', values.masters, 3, 1, 16),
    replicasPerMaster: intFlag('cluster up', 'replicas', values.replicas, 1, 0, 4),
    nodeTimeoutMs: intFlag(
      'cluster up',
      'node-timeout',
      values['node-timeout'],
      NODE_TIMEOUT_MS.default,
      NODE_TIMEOUT_MS.min,
      NODE_TIMEOUT_MS.max,
    ),
    seed: intFlag('cluster up', 'seed', values.seed, 1),
  });
  const [seed] = cluster.seeds();
  io.stdout.write(`ready ${seed.host}:${seed.port}\n`);
  io.stdout.write(await nodeTable(cluster));
  await untilSignal();
  io.stderr.write('tearing down\n');
  await cluster.dispose();
  return EXIT.ok;
}

async function nodeTable(cluster: LocalCluster): Promise<string> {
  const topology = await cluster.topology();
  const rows = [['node', 'role', 'slots / master', 'client', 'announced', 'direct', 'pid']];
  for (const state of topology.nodes) {
    const proc = cluster.processes()[state.node.index];
    rows.push([
      state.node.name,
      state.role,
      state.role === 'master' ? state.slots.map((s) => s.join('-')).join(',') : `of n${state.masterIndex}`,
      state.node.client,
      state.node.announced,
      state.node.direct,
      String(proc.pid ?? '-'),
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const lines = rows.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c]))
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\ntoxiproxy api ${cluster.toxiproxyApi} (pid ${cluster.toxiproxyPid})\n`;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
