import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobOptions } from '../../src/cli/chaos-flags.ts';
import { runJob } from '../../src/certify/job.ts';
import { behaviourFindings } from './fixtures/process/job.ts';
import { luaDirOpener, referenceScriptsDir } from '../../src/certify/openers/lua-dir.ts';
import type { LocalCluster } from '../../src/cluster/local.ts';
import { sharedCluster } from '../support/shared-cluster.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

let cluster: LocalCluster;
let reports: string;
beforeAll(async () => {
  cluster = await sharedCluster();
  reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-external-'));
});
afterAll(async () => {
  fs.rmSync(reports, { recursive: true, force: true });
});

async function dbsizes(): Promise<number[]> {
  const masters = (await cluster.topology()).nodes.filter((n) => n.role === 'master');
  return Promise.all(masters.map(async (m) => Number(await cluster.command(m.node.index, 'DBSIZE'))));
}

describe('certify against an external cluster (--cluster redis://...)', () => {
  it('runs only the faults it may, certifies, and leaves none of its keys behind', async () => {
    const [seed] = cluster.seeds();
    const stderr: string[] = [];
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => stderr.push(s) } };
    const dir = referenceScriptsDir('idempotency');
    const options = jobOptions('certify', {
      runs: '3',
      seed: '5',
      report: reports,
      cluster: `redis://${seed.host}:${seed.port}`,
    });
    const result = await runJob(options, luaDirOpener(PATTERNS.idempotency, dir, `lua:${dir}`), io);
    // Three runs prove the behaviour, not the evidence a certificate needs (see behaviourFindings).
    expect(result.outcome.failure).toBeUndefined();
    expect(behaviourFindings(result)).toEqual([]);
    expect(result.outcome.tally.runs).toBe(3);
    expect(result.skippedFaults).toEqual([
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
    ]);
    // The client-side faults only: a client stalled, or a client's own clock (client-clock records one per skewed client).
    expect(
      Object.keys(result.outcome.tally.faultCounts).filter((k) => k !== 'client-freeze' && k !== 'client-clock'),
    ).toEqual([]);
    expect(stderr.join('')).toContain('on an external cluster these faults are not run');
    expect(await dbsizes()).toEqual([0, 0, 0]);
  });
});
