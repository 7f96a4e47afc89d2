import { describe, expect, it } from 'vitest';
import { check } from '../../../src/checker/index.ts';
import type { History, OpRecord, ProbeRecord } from '../../../src/history/types.ts';
import type { RateLimitInput, RateLimitOutput } from '../../../src/patterns/ratelimit/model.ts';
import { op } from './support/ops.ts';
import { PATTERNS } from '../../../src/patterns/index.ts';

const hit = (at: number, output: RateLimitOutput): OpRecord<RateLimitInput, RateLimitOutput> =>
  op(1, { op: 'hit', limit: 3, windowSeconds: 1 }, at, at + 1, { output });
const probe = (pttlMs: number): ProbeRecord => ({ type: 'probe', key: 'k', at: 10, pttlMs });
const limiter = PATTERNS.ratelimit;

function history(probes: ProbeRecord[]): History {
  return { ops: [hit(0, 1), hit(2, 1)], faults: [], topology: [], probes };
}

describe('post-run TTL probes', () => {
  it('a counter left with no TTL breaks counter-has-ttl, though every answer was right', () => {
    const result = check(history([probe(-1)]), limiter);
    expect(result.verdict).toBe('illegal');
    expect(result.violations.map((v) => v.invariant)).toEqual(['counter-has-ttl']);
    expect(result.violations[0].message).toContain('no TTL');
  });

  it('a counter with a TTL, or gone, is fine', () => {
    expect(check(history([probe(850)]), limiter).verdict).toBe('ok');
    expect(check(history([probe(-2)]), limiter).verdict).toBe('ok');
    expect(check(history([]), limiter).verdict).toBe('ok');
  });

  it('names model-conformance for the other models', () => {
    const h: History = {
      ops: [op(1, { op: 'acquire', token: 't', ttlMs: 500 }, 0, 1, { output: 1 })],
      faults: [],
      topology: [],
      probes: [probe(-1)],
    };
    const result = check(h, PATTERNS.lock);
    expect(result.violations.map((v) => v.invariant)).toEqual(['model-conformance']);
  });
});
