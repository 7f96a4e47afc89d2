import { describe, expect, it } from 'vitest';
import { ScriptMetrics } from '../../../src/scripts/metrics.ts';
import { IdempotencyMetrics } from '../../../src/patterns/idempotency/metrics.ts';

describe('metrics', () => {
  it('keeps each client in a registry of its own', async () => {
    const a = new IdempotencyMetrics();
    const b = new IdempotencyMetrics();
    a.observer().onNoScript?.('renew');
    expect(await a.text()).toMatch(/^idempotency_noscript_total\{script="renew"\} 1$/m);
    expect(await b.text()).not.toMatch(/^idempotency_noscript_total\{script="renew"\}/m);
  });

  it('has a bucket boundary at the 15 ms alert line', async () => {
    const m = new ScriptMetrics('lock');
    m.observer().onCall?.('acquire', 14);
    m.observer().onCall?.('acquire', 16);
    const text = await m.text();
    expect(text).toMatch(/^lock_script_duration_ms_bucket\{le="15",script="acquire"\} 1$/m);
    expect(text).toMatch(/^lock_script_duration_ms_count\{script="acquire"\} 2$/m);
  });
});
