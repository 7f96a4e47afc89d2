import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Heartbeat } from '../../../../src/patterns/idempotency/heartbeat.ts';

describe('Heartbeat', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('renews once per interval while running, and never after stop()', async () => {
    const renew = vi.fn(async () => true);
    const beat = new Heartbeat(100, renew, () => {}).start();
    await vi.advanceTimersByTimeAsync(350);
    expect(renew).toHaveBeenCalledTimes(3);
    await beat.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(renew).toHaveBeenCalledTimes(3);
    expect(beat.lost).toBe(false);
  });

  it('reports a renew answering false once, as a lost lease, and stops', async () => {
    const answers = [true, false];
    const renew = vi.fn(async () => answers.shift() ?? true);
    const onLost = vi.fn();
    const beat = new Heartbeat(100, renew, onLost).start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(renew).toHaveBeenCalledTimes(2);
    expect(onLost).toHaveBeenCalledTimes(1);
    expect(beat.lost).toBe(true);
  });

  it('keeps beating through renew errors (a timeout is not a lost lease)', async () => {
    let calls = 0;
    const renew = vi.fn(async () => {
      calls++;
      if (calls <= 2) throw new Error('Command timed out');
      return true;
    });
    const onLost = vi.fn();
    const beat = new Heartbeat(100, renew, onLost).start();
    await vi.advanceTimersByTimeAsync(450);
    expect(renew).toHaveBeenCalledTimes(4);
    expect(beat.errors).toBe(2);
    expect(onLost).not.toHaveBeenCalled();
    await beat.stop();
  });

  it('waits, on stop(), for a renew already in flight', async () => {
    let finish!: (v: boolean) => void;
    const renew = vi.fn(() => new Promise<boolean>((resolve) => (finish = resolve)));
    const beat = new Heartbeat(100, renew, () => {}).start();
    await vi.advanceTimersByTimeAsync(100);
    expect(renew).toHaveBeenCalledTimes(1);
    let stopped = false;
    const stopping = beat.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(stopped).toBe(false);
    finish(true);
    await stopping;
    expect(stopped).toBe(true);
  });
});
