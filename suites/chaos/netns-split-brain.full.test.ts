import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { luaDirOpener, referenceScriptsDir } from '../../src/certify/openers/lua-dir.ts';
import type { OpenedImpl } from '../../src/certify/types.ts';
import { check } from '../../src/checker/index.ts';
import { NetnsCluster } from '../../src/cluster/netns/cluster.ts';
import { netnsUnavailable } from '../../src/cluster/netns/host.ts';
import type { Schedule } from '../../src/generator/index.ts';
import type { History, OpRecord } from '../../src/history/types.ts';
import type { IdempotencyInput, IdempotencyOutput } from '../../src/patterns/idempotency/model.ts';
import { runSchedule } from '../../src/runner/run.ts';
import { PATTERNS } from '../../src/patterns/index.ts';

const unavailable = netnsUnavailable();

/**
 * A split brain, recorded on the netns backend: the master of k0 is cut off from every other node
 * for three node timeouts. c0 registers while the isolated master still takes writes (a third of a
 * node timeout into the partition: well after the cut, well before the master notices it is alone),
 * and is answered fresh; the majority promotes the replica, which never saw that write; after the
 * heal the old master rejoins as a replica and its branch is discarded, so c1's register, long after,
 * is fresh again within c0's minute-long lease. As recorded that is two winners; it must be
 * classified as replication loss (the partition was lossy: a shard changed master), not a violation.
 */
const NODE_TIMEOUT_MS = 3_000;
const lease = 60_000;
const register = (owner: string): IdempotencyInput => ({ op: 'register', fingerprint: 'f', owner, leaseMs: lease });
const schedule: Schedule<IdempotencyInput> = {
  pattern: 'idempotency',
  keys: 1,
  clients: [
    [
      { type: 'pause', ms: NODE_TIMEOUT_MS / 3 },
      { type: 'op', key: 0, input: register('a') },
    ],
    [
      { type: 'pause', ms: NODE_TIMEOUT_MS * 5 },
      { type: 'op', key: 0, input: register('b') },
    ],
  ],
  faults: [{ kind: 'partition', atMs: 0, shape: 'one', key: 0, ms: NODE_TIMEOUT_MS * 3, seed: 1 }],
};

describe.skipIf(unavailable !== undefined)(
  `a split brain on the netns backend${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let cluster: NetnsCluster;
    let opened: OpenedImpl;
    let history: History<IdempotencyInput, IdempotencyOutput>;

    beforeAll(async () => {
      cluster = await NetnsCluster.start({ nodeTimeoutMs: NODE_TIMEOUT_MS });
      const dir = referenceScriptsDir('idempotency');
      opened = await luaDirOpener(PATTERNS.idempotency, dir, `lua:${dir}`)(cluster, 2);
      const run = await runSchedule(schedule, {
        cluster,
        subjects: opened.subjects,
        namespace: 'split-brain',
        nodeTimeoutMs: NODE_TIMEOUT_MS,
        opTimeoutMs: 10_000,
      });
      history = run.history as History<IdempotencyInput, IdempotencyOutput>;
    });
    afterAll(async () => {
      await opened?.close();
      await cluster?.dispose();
    });

    it('records the split brain: the partition failed the shard over, and both registers were answered fresh', () => {
      const [partition] = history.faults.filter((f) => f.kind === 'partition');
      expect(partition.lossy).toBe(true);
      expect(partition.detail).toMatch(/slots \d+-\d+: n\d -> n\d/);
      expect(history.ops.map((o) => [o.outcome, o.output])).toEqual([
        ['ok', ['fresh']],
        ['ok', ['fresh']],
      ]);
    });

    it('is replication loss, with the lost register listed, never a violation', () => {
      const result = check(history, PATTERNS.idempotency);
      expect(result.verdict).toBe('replication-loss');
      expect(result.violations).toEqual([]);
      const [loss] = result.replicationLosses;
      expect(loss.invariant).toBe('one-winner');
      expect(loss.faults.map((f) => f.kind)).toEqual(['partition']);
      expect(loss.witness.map((o) => (o.input as IdempotencyInput).owner)).toEqual(expect.arrayContaining(['a', 'b']));
      expect(loss.message).toMatch(
        /partition on n\d \| .* rolled the key back from pending\(fingerprint="f", owner="a", lease of op 0\) to absent/,
      );
    });

    it('still catches a real bug in the same history: a release that succeeds twice after the heal', () => {
      const end = Math.max(...history.ops.map((o) => o.completedAt), ...history.faults.map((f) => f.endedAt));
      const release = (id: number, at: number): OpRecord<IdempotencyInput, IdempotencyOutput> => ({
        type: 'op',
        id,
        client: 1,
        key: history.ops[0].key,
        input: { op: 'release', owner: 'b' },
        invokedAt: at,
        completedAt: at + 5,
        outcome: 'ok',
        output: 1,
      });
      const buggy = { ...history, ops: [...history.ops, release(1_000, end + 100), release(1_001, end + 200)] };
      const result = check(buggy, PATTERNS.idempotency);
      expect(result.verdict).toBe('illegal');
      expect(result.violations.map((v) => v.witness.some((o) => o.id === 1_001))).toEqual([true]);
    });
  },
);
