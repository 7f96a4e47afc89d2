import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { faultsForBackend, refusedBackendFaults } from '../../../src/certify/partition-faults.ts';
import { MastersCluster } from '../../../src/cluster/masters.ts';
import { EnvironmentError } from '../../../src/cluster/errors.ts';
import { CLOCK_FAULT_NAMES, FAULT_NAMES } from '../../../src/faults/index.ts';
import { parseFaultList } from '../../../src/generator/index.ts';
import {
  CLUSTER_TOPOLOGY,
  describeTopology,
  parseTopologySpec,
  TopologySpecError,
} from '../../../src/plan/topology.ts';
import { expectUsage as usage, forbidClusters } from './support.ts';

// --topology is checked once at the edge, and which faults independent masters run is decided in
// one place (src/certify/partition-faults.ts): a refusal is one line, exit 2, before anything starts.

let attempts: string[];
beforeEach(() => {
  attempts = forbidClusters();
  vi.spyOn(MastersCluster, 'start').mockImplementation(async () => {
    attempts.push('masters');
    throw new EnvironmentError('test: masters were about to start');
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const expectUsage = (argv: string[], message: RegExp) => usage(argv, message, attempts);

const MASTERS = parseTopologySpec('masters');

describe('--topology, parsed once', () => {
  it('cluster by default; masters is five; masters:N within 1-16', () => {
    expect(parseTopologySpec(undefined)).toEqual(CLUSTER_TOPOLOGY);
    expect(parseTopologySpec(' cluster ')).toEqual(CLUSTER_TOPOLOGY);
    expect(MASTERS).toEqual({ kind: 'masters', count: 5 });
    expect(parseTopologySpec('masters:3')).toEqual({ kind: 'masters', count: 3 });
    for (const bad of ['masters:0', 'masters:17', 'masters:x', 'sentinels', 'masters:', 'sentinel:0', 'sentinel:5'])
      expect(() => parseTopologySpec(bad), bad).toThrow(TopologySpecError);
  });
});

describe('which faults independent masters run (the one policy)', () => {
  it("all and clocks mean what masters can run: node stops, client-link toxics, SCRIPT FLUSH, the clients' faults and every clock fault", () => {
    const faults = faultsForBackend('local', parseFaultList('all,clocks'), 'all,clocks', MASTERS);
    expect(faults).toEqual(
      expect.arrayContaining([
        'node-freeze',
        'kill-restart',
        'latency',
        'timeout',
        'reset-peer',
        'script-flush',
        'client-freeze',
        ...CLOCK_FAULT_NAMES,
      ]),
    );
    for (const never of [
      'failover',
      'failover-force',
      'failover-takeover',
      'busy-script',
      'command-delay',
      'reply-loss',
    ])
      expect(faults).not.toContain(never);
    expect(refusedBackendFaults('local', MASTERS, parseFaultList('all,clocks'), 'all,clocks')).toBeUndefined();
  });

  it('a fault named one by one that masters cannot run is refused, naming it; a cluster keeps every fault as before', () => {
    expect(
      refusedBackendFaults(
        'local',
        MASTERS,
        parseFaultList('node-freeze,failover-force'),
        'node-freeze,failover-force',
      ),
    ).toMatch(/^--faults failover-force cannot run on --topology masters:5 \(independent masters have no replicas/);
    expect(
      refusedBackendFaults('local', CLUSTER_TOPOLOGY, parseFaultList('failover-force'), 'failover-force'),
    ).toBeUndefined();
    expect(faultsForBackend('local', FAULT_NAMES, undefined, CLUSTER_TOPOLOGY)).toEqual([...FAULT_NAMES]);
  });
});

describe('--topology, refused at the edge', () => {
  const lock = ['--pattern', 'lock', '--impl', 'lua:lua/lock', '--runs', '1'];
  it('an unknown value or a count out of its limits', async () => {
    await expectUsage(
      ['certify', ...lock, '--topology', 'sentinels'],
      /^chaoslua: certify: --topology unknown value 'sentinels' \(expected cluster, masters, masters:N, sentinel or sentinel:R\)\n$/,
    );
    await expectUsage(
      ['run', '--pattern', 'lock', '--topology', 'masters:40'],
      /^chaoslua: run: --topology masters:40: the count must be an integer in \[1, 16\]\n$/,
    );
  });

  it('a pattern without a client for several masters, a cluster it does not start, --durability', async () => {
    await expectUsage(
      ['run', '--pattern', 'idempotency', '--topology', 'masters'],
      /^chaoslua: run: --topology masters runs only the lock pattern \(its reference Redlock client\), not --pattern idempotency, got 'masters'\n$/,
    );
    await expectUsage(
      ['certify', ...lock, '--topology', 'masters', '--cluster', 'redis://127.0.0.1:7000'],
      /--topology masters needs --cluster local/,
    );
    await expectUsage(
      ['certify', ...lock, '--topology', 'masters:3', '--durability', 'wait:1:100'],
      /^chaoslua: certify: --durability cannot apply on --topology masters \(independent masters have no replicas to wait for\)\n$/,
    );
  });

  it('a fault masters cannot run (every door runs there: module: and cmd: are handed every master)', async () => {
    await expectUsage(
      ['certify', ...lock, '--topology', 'masters', '--faults', 'failover'],
      /^chaoslua: certify: --faults failover cannot run on --topology masters:5/,
    );
    await expectUsage(
      [
        'certify',
        '--pattern',
        'lock',
        '--impl',
        'module:examples/third-party/redlock/store.mjs',
        '--topology',
        'masters',
        '--faults',
        'failover',
      ],
      /^chaoslua: certify: --faults failover cannot run on --topology masters:5/,
    );
  });
});

const SENTINEL = parseTopologySpec('sentinel');
const sentinelLock = ['--pattern', 'lock', '--impl', 'lua:lua/lock', '--runs', '1'];

describe('--topology sentinel[:R]', () => {
  it('two replicas by default, 1-4 given; described as sentinel:R', () => {
    expect(SENTINEL).toEqual({ kind: 'sentinel', replicas: 2 });
    expect(parseTopologySpec(' sentinel:4 ')).toEqual({ kind: 'sentinel', replicas: 4 });
    expect(describeTopology(parseTopologySpec('sentinel:1'))).toBe('sentinel:1');
    expect(() => parseTopologySpec('sentinel:5')).toThrow(
      /sentinel:5: the replica count must be an integer in \[1, 4\]/,
    );
  });

  it("all means every fault but CLUSTER FAILOVER's FORCE and TAKEOVER and the partitions; failover is Sentinel's", () => {
    const faults = faultsForBackend('local', parseFaultList('all,clocks'), 'all,clocks', SENTINEL);
    expect(faults).toEqual(
      expect.arrayContaining([
        'failover',
        'node-freeze',
        'kill-restart',
        'latency',
        'timeout',
        'script-flush',
        'busy-script',
        'client-freeze',
        ...CLOCK_FAULT_NAMES,
      ]),
    );
    for (const never of ['failover-force', 'failover-takeover', 'partition-one', 'partition-primaries'])
      expect(faults).not.toContain(never);
    expect(refusedBackendFaults('local', SENTINEL, parseFaultList('all,clocks'), 'all,clocks')).toBeUndefined();
    expect(
      refusedBackendFaults(
        'local',
        SENTINEL,
        parseFaultList('failover,failover-takeover'),
        'failover,failover-takeover',
      ),
    ).toMatch(
      /^--faults failover-takeover cannot run on --topology sentinel:2 \(Sentinel has one failover, SENTINEL FAILOVER/,
    );
  });

  it('refused at the edge in one line: a bad count, a cluster it does not start, --durability, a failover it has not', async () => {
    await expectUsage(
      ['certify', ...sentinelLock, '--topology', 'sentinel:9'],
      /^chaoslua: certify: --topology sentinel:9: the replica count must be an integer in \[1, 4\]\n$/,
    );
    await expectUsage(
      ['certify', ...sentinelLock, '--topology', 'sentinel', '--cluster', 'redis://127.0.0.1:7000'],
      /--topology sentinel needs --cluster local/,
    );
    await expectUsage(
      ['certify', ...sentinelLock, '--topology', 'sentinel', '--durability', 'wait:1:100'],
      /^chaoslua: certify: --durability is not offered on --topology sentinel yet/,
    );
    await expectUsage(
      ['certify', ...sentinelLock, '--topology', 'sentinel:1', '--faults', 'failover-force'],
      /^chaoslua: certify: --faults failover-force cannot run on --topology sentinel:1/,
    );
  });
});
