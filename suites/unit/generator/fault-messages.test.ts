// What the fault names look like from outside (the --faults list, its errors, the external and netns
// refusals, the help lines) pinned word for word: the fault descriptors are the one source of these,
// and must say exactly what was said before them (client-clock added, beside the other client faults).
import { describe, expect, it } from 'vitest';
import { externalFaultsFor, refusedExternalFaults } from '../../../src/certify/external-faults.ts';
import { refusedPartitionFaults } from '../../../src/certify/partition-faults.ts';
import { CHAOS_FLAGS_HELP } from '../../../src/cli/chaos-flags.ts';
import { parseFaultList } from '../../../src/generator/index.ts';

const KNOWN =
  'lease-expiry, client-freeze, client-clock, node-freeze, script-flush, busy-script, failover, failover-force, failover-takeover, latency, slow-network, timeout, reset-peer, kill-restart, command-delay, reply-loss, partition-one, partition-majority, partition-bridge, partition-primaries, clock-jump, clock-strobe, clock-drift, script-evict, all, clocks, none';

describe('the fault vocabulary as the CLI shows it', () => {
  it('names every fault, in order, when one is unknown', () => {
    expect(() => parseFaultList('latency,bogus,x')).toThrow(`unknown faults 'bogus', 'x' (known: ${KNOWN})`);
    expect(() => parseFaultList('bogus')).toThrow(`unknown fault 'bogus' (known: ${KNOWN})`);
  });

  it('lets all be joined only by what it leaves out: clocks, script-evict', () => {
    expect(parseFaultList('all,script-evict')).toContain('script-evict');
    expect(parseFaultList('all')).not.toContain('script-evict');
    expect(() => parseFaultList('all,script-flush')).toThrow(
      "'all' and 'none' stand alone, not in a list with other names but those all leaves out ('all,script-flush')",
    );
  });

  it('lists the faults in --help as before', () => {
    const lines = CHAOS_FLAGS_HELP.split('\n').filter(
      (l) => l.includes('--faults') || l.includes('with --cluster netns also'),
    );
    expect(lines).toEqual([
      '  --faults LIST      comma list of lease-expiry, client-freeze, client-clock, node-freeze, script-flush, busy-script, failover, failover-force, failover-takeover, latency, slow-network, timeout, reset-peer, kill-restart, command-delay, reply-loss; or all | none (default all);',
      '                     with --cluster netns also partition-one, partition-majority, partition-bridge, partition-primaries (in all there);',
    ]);
  });

  it('runs on an external cluster only the client-side faults, and the destructive ones when allowed', () => {
    expect(externalFaultsFor(true, false, parseFaultList('all'))).toEqual({
      faults: ['lease-expiry', 'client-freeze', 'client-clock'],
      skipped: [
        'node-freeze',
        'script-flush',
        'busy-script',
        'failover',
        'failover-force',
        'failover-takeover',
        'latency',
        'slow-network',
        'timeout',
        'reset-peer',
        'kill-restart',
        'command-delay',
        'reply-loss',
      ],
    });
    expect(externalFaultsFor(true, true, parseFaultList('all'))).toEqual({
      faults: [
        'lease-expiry',
        'client-freeze',
        'client-clock',
        'script-flush',
        'busy-script',
        'failover',
        'failover-force',
        'failover-takeover',
      ],
      skipped: [
        'node-freeze',
        'latency',
        'slow-network',
        'timeout',
        'reset-peer',
        'kill-restart',
        'command-delay',
        'reply-loss',
      ],
    });
    expect(externalFaultsFor(false, false, ['node-freeze'])).toEqual({ faults: ['node-freeze'], skipped: [] });
  });

  it('refuses with the same words a fault the cluster cannot run', () => {
    expect(refusedExternalFaults(['lease-expiry', 'failover', 'busy-script'], false)).toBe(
      '--faults failover, busy-script on an external cluster needs --allow-destructive',
    );
    expect(refusedExternalFaults(['lease-expiry', 'node-freeze', 'latency', 'partition-one'], true)).toBe(
      "--faults node-freeze, latency, partition-one cannot run on an external cluster (they need the nodes' processes or proxies; only lease-expiry, client-freeze, client-clock, script-flush, busy-script, failover, failover-force, failover-takeover, script-evict can)",
    );
    expect(refusedExternalFaults(['lease-expiry', 'failover'], true)).toBeUndefined();
    expect(refusedPartitionFaults('compose', ['latency', 'partition-one', 'partition-primaries'])).toBe(
      '--faults partition-one, partition-primaries needs --cluster netns (partitions between nodes need each node in a network namespace of its own)',
    );
  });
});
