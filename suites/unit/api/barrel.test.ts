import { describe, expect, it } from 'vitest';
import * as chaoslua from '../../../src/index.ts';

describe('the public barrel', () => {
  it('exposes the four roles, the models, the reference clients and certification from code', () => {
    for (const name of [
      'LocalCluster',
      'scheduleArbitrary',
      'runSchedule',
      'chaos',
      'check',
      'IdempotencyStore',
      'runJob',
      'jobOptionsFrom',
      'luaDirOpener',
      'moduleOpener',
      'cmdOpener',
      'lintPath',
      'main',
    ] as const) {
      // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the test reads the barrel by name on purpose
      expect(typeof chaoslua[name], name).toBe('function');
    }
    expect(Object.keys(chaoslua.models).sort()).toEqual(['gcra', 'idempotency', 'lock', 'ratelimit', 'semaphore']);
  });
});
