import { describe, expect, it, vi } from 'vitest';
import { ClusterUsageError, EnvironmentError } from '../../../src/cluster/errors.ts';
import { parseClusterSpec, startCluster } from '../../../src/cluster/select.ts';

// compose's Docker check is replaced so this suite means the same with and without an engine.
vi.mock('../../../src/cluster/docker.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/cluster/docker.ts')>();
  return {
    ...real,
    requireDocker: async () => {
      throw new real.DockerUnavailableError(real.dockerSkipMessage('test: engine switched off'));
    },
  };
});

describe('parseClusterSpec', () => {
  it('defaults to local and knows compose', () => {
    expect(parseClusterSpec(undefined)).toEqual({ kind: 'local' });
    expect(parseClusterSpec('')).toEqual({ kind: 'local' });
    expect(parseClusterSpec('local')).toEqual({ kind: 'local' });
    expect(parseClusterSpec('compose')).toEqual({ kind: 'compose' });
    expect(parseClusterSpec('netns')).toEqual({ kind: 'netns' });
  });

  it('takes a redis:// seed list as an external cluster, validated up front', () => {
    expect(parseClusterSpec('redis://10.0.0.1:7000,10.0.0.2:7000')).toEqual({
      kind: 'external',
      seeds: 'redis://10.0.0.1:7000,10.0.0.2:7000',
    });
    expect(parseClusterSpec('rediss://a:1')).toEqual({ kind: 'external', seeds: 'rediss://a:1' });
    expect(() => parseClusterSpec('redis://10.0.0.1:port')).toThrow(/^--cluster: bad port 'port'/);
  });

  it('rejects anything else in one line naming the value and the accepted forms', () => {
    for (const value of ['docker', 'Local', '10.0.0.1:7000']) {
      let error: unknown;
      try {
        parseClusterSpec(value);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ClusterUsageError);
      expect((error as Error).message).toBe(
        `--cluster: unknown value '${value}' (expected 'local' (default), 'compose', 'netns', or redis://host:port[,host:port...])`,
      );
    }
  });
});

describe('startCluster', () => {
  it('refuses a bad value before starting anything', async () => {
    await expect(startCluster('docker')).rejects.toBeInstanceOf(ClusterUsageError);
  });

  it('compose without Docker: an environment error whose message is the skip line', async () => {
    const error = await startCluster('compose').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as Error).message).toBe(
      'compose backend skipped: no Docker engine answers (test: engine switched off)',
    );
  });

  it('compose options are validated before Docker is asked', async () => {
    await expect(startCluster('compose', { compose: { seed: -1 } })).rejects.toThrow(
      /ComposeCluster\.start: seed must be an integer/,
    );
  });

  it('an external cluster nobody answers for: an environment error naming the seed', async () => {
    const error = await startCluster('redis://127.0.0.1:1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as Error).message).toMatch(
      /external cluster redis:\/\/127\.0\.0\.1:1: no seed answered CLUSTER NODES \(127\.0\.0\.1:1: .*ECONNREFUSED/,
    );
  });
});
