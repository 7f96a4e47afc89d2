import { run } from './host.ts';
import type { NetnsTools } from './host.ts';
import type { NodeNet } from './network.ts';

import type { Grudge, Partitions } from './partitions.ts';

/**
 * The links between nodes, each in the receiving node's namespace: a grudge is nftables' @blocked
 * set (packets dropped on input), a refusal the @refused set (TCP answered with a reset), a delay a
 * netem qdisc on the node's egress towards its peers (not towards the harness). The root namespace's
 * rule set is never touched, and everything here dies with the namespaces.
 */
export class PeerLinks implements Partitions {
  private grudge: Grudge = new Map();

  constructor(
    private readonly tools: NetnsTools,
    private readonly nodes: readonly NodeNet[],
    private readonly hostIp: string,
  ) {}

  /** The grudge in force ("n0 drops n1,n2; ..."), empty when healed. */
  get current(): Grudge {
    return this.grudge;
  }

  /** Replace the grudge: every node drops exactly what `grudge` says (nothing when absent). */
  async cut(grudge: Grudge): Promise<void> {
    this.grudge = grudge;
    await Promise.all(
      this.nodes.map((n, i) => {
        const from = (grudge.get(i) ?? []).map((j) => this.nodes[j].ip);
        return this.nft(
          n,
          `flush set inet chaoslua blocked\n${from.length ? `add element inet chaoslua blocked { ${from.join(', ')} }\n` : ''}`,
        );
      }),
    );
  }

  /** `node` answers its peers' TCP with a reset (its clients are not touched). */
  async refuse(node: number): Promise<void> {
    const peers = this.peersOf(node);
    await this.nft(this.nodes[node], `add element inet chaoslua refused { ${peers.join(', ')} }\n`);
  }

  /** `node`'s packets to its peers wait `ms` (± jitter) more; to the harness, nothing more. */
  async delay(node: number, ms: number, jitterMs: number): Promise<void> {
    const n = this.nodes[node];
    const subnet = `${n.ip.split('.').slice(0, 3).join('.')}.0/24`;
    const tc = (...args: string[]) =>
      run(this.tools.tc, ['-n', n.namespace, ...args]).catch((error: Error) => {
        // Some kernels are built without sch_prio / sch_netem: say so rather than a bare tc error.
        throw /qdisc kind is unknown/.test(error.message)
          ? new Error(
              `latency between nodes needs the kernel's prio and netem qdiscs, which this kernel lacks (${error.message})`,
            )
          : error;
      });
    await tc('qdisc', 'replace', 'dev', 'eth0', 'root', 'handle', '1:', 'prio');
    await tc(
      'qdisc',
      'replace',
      'dev',
      'eth0',
      'parent',
      '1:3',
      'handle',
      '30:',
      'netem',
      'delay',
      `${ms}ms`,
      `${jitterMs}ms`,
    );
    await tc(
      'filter',
      'add',
      'dev',
      'eth0',
      'parent',
      '1:0',
      'protocol',
      'ip',
      'prio',
      '1',
      'u32',
      'match',
      'ip',
      'dst',
      `${this.hostIp}/32`,
      'flowid',
      '1:1',
    );
    await tc(
      'filter',
      'add',
      'dev',
      'eth0',
      'parent',
      '1:0',
      'protocol',
      'ip',
      'prio',
      '2',
      'u32',
      'match',
      'ip',
      'dst',
      subnet,
      'flowid',
      '1:3',
    );
  }

  /** Every grudge, refusal and delay gone. */
  async heal(): Promise<void> {
    this.grudge = new Map();
    await Promise.all(
      this.nodes.map(async (n) => {
        await this.nft(n, 'flush set inet chaoslua blocked\nflush set inet chaoslua refused\n');
        await run(this.tools.tc, ['-n', n.namespace, 'qdisc', 'del', 'dev', 'eth0', 'root']).catch(() => undefined); // none installed
      }),
    );
  }

  describe(): string {
    const parts = [...this.grudge]
      .filter(([, from]) => from.length > 0)
      .map(([i, from]) => `n${i} drops n${from.join(',n')}`);
    return parts.length ? parts.join('; ') : 'no partition';
  }

  private peersOf(node: number): string[] {
    return this.nodes.filter((_, j) => j !== node).map((n) => n.ip);
  }

  private nft(node: NodeNet, script: string): Promise<string> {
    return run(this.tools.ip, ['netns', 'exec', node.namespace, this.tools.nft, '-f', '-'], script);
  }
}
