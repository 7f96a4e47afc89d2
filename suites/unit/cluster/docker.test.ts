import { describe, expect, it } from 'vitest';
import {
  DockerUnavailableError,
  dockerAvailable,
  dockerSkipMessage,
  dockerStatus,
  requireDocker,
} from '../../../src/cluster/docker.ts';
import { EnvironmentError } from '../../../src/cluster/errors.ts';

describe('docker probe', () => {
  it('formats the skip line', () => {
    expect(dockerSkipMessage('ECONNREFUSED')).toBe('compose backend skipped: no Docker engine answers (ECONNREFUSED)');
  });

  it('answers consistently, with a one-line reason when unavailable', async () => {
    const status = await dockerStatus();
    expect(await dockerAvailable()).toBe(status.available);
    if (status.available) {
      await expect(requireDocker()).resolves.toBeUndefined();
    } else {
      expect(status.reason.length).toBeGreaterThan(0);
      expect(status.reason).not.toContain('\n');
      const error = await requireDocker().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DockerUnavailableError);
      expect(error).toBeInstanceOf(EnvironmentError);
      expect((error as Error).message).toBe(dockerSkipMessage(status.reason));
    }
  });
});
