import { randomBytes } from 'node:crypto';
import type { ReapedDir } from '../reaper.ts';
import { runSync, type NetnsTools } from './host.ts';
import { claimSubnet } from './subnet.ts';

/** One node's place on the run's bridge. */
export interface NodeNet {
  /** Network namespace, e.g. "chaoslua-3fa9c1-n0". */
  readonly namespace: string;
  /** Its address on the bridge, e.g. "10.238.17.10". */
  readonly ip: string;
  /** The root-side end of its veth pair (a link of the root namespace). */
  readonly hostLink: string;
}

/** The nftables table every node namespace gets: packets from the addresses in @blocked are dropped
 *  on input (Jepsen's way: each node refuses what comes from the nodes it has a grudge against). */
export const PARTITION_TABLE = `table inet chaoslua {
  set blocked { type ipv4_addr; }
  set refused { type ipv4_addr; }
  chain input {
    type filter hook input priority 0; policy accept;
    ip saddr @blocked drop
    ip saddr @refused meta l4proto tcp reject with tcp reset
  }
}
`;

/**
 * The run's network: a bridge in the root namespace holding the harness's address (.1), and per
 * node a namespace joined to it by a veth pair, with `lo` up and the partition table loaded. Every
 * name carries the run id, so two runs never collide. What it creates is registered with the reaper
 * *before* it is created, so no exit path (dispose, exit, Ctrl-C, SIGTERM, kill -9) leaves any of it.
 */
export class NetnsNetwork {
  private constructor(
    readonly runId: string,
    readonly bridge: string,
    /** The harness's address on the bridge. */
    readonly hostIp: string,
    readonly nodes: readonly NodeNet[],
  ) {}

  static create(tools: NetnsTools, dir: ReapedDir, count: number): NetnsNetwork {
    const { ip, nft } = tools;
    const runId = randomBytes(3).toString('hex');
    // Interface names have 15 characters at most: "clb" + 6 hex for the bridge, "clv" + 6 + "n" + i per veth.
    const bridge = `clb${runId}`;
    const subnet = claimSubnet(ip);
    dir.atReap(`rm -f '${subnet.claim}'`);
    const nodes: NodeNet[] = Array.from({ length: count }, (_, i) => ({
      namespace: `chaoslua-${runId}-n${i}`,
      ip: `${subnet.base}.${10 + i}`,
      hostLink: `clv${runId}n${i}`,
    }));
    for (const n of nodes)
      dir.atReap(`${ip} link del ${n.hostLink} 2>/dev/null; ${ip} netns del ${n.namespace} 2>/dev/null`);
    dir.atReap(`${ip} link del ${bridge} 2>/dev/null`);

    const hostIp = `${subnet.base}.1`;
    runSync(ip, ['link', 'add', bridge, 'type', 'bridge']);
    runSync(ip, ['addr', 'add', `${hostIp}/24`, 'dev', bridge]);
    runSync(ip, ['link', 'set', bridge, 'up']);
    for (const [i, n] of nodes.entries()) {
      const peer = `clp${runId}n${i}`;
      runSync(ip, ['netns', 'add', n.namespace]);
      runSync(ip, ['link', 'add', n.hostLink, 'type', 'veth', 'peer', 'name', peer]);
      runSync(ip, ['link', 'set', n.hostLink, 'master', bridge]);
      runSync(ip, ['link', 'set', n.hostLink, 'up']);
      runSync(ip, ['link', 'set', peer, 'netns', n.namespace]);
      const inside = (...args: string[]) => runSync(ip, ['-n', n.namespace, ...args]);
      inside('link', 'set', peer, 'name', 'eth0');
      inside('addr', 'add', `${n.ip}/24`, 'dev', 'eth0');
      inside('link', 'set', 'eth0', 'up');
      inside('link', 'set', 'lo', 'up');
      runSync(ip, ['netns', 'exec', n.namespace, nft, '-f', '-'], PARTITION_TABLE);
    }
    return new NetnsNetwork(runId, bridge, hostIp, nodes);
  }

  toString(): string {
    return `bridge ${this.bridge} (${this.hostIp}/24), namespaces ${this.nodes.map((n) => n.namespace).join(', ')}`;
  }
}
