/**
 * Renews a lease every `intervalMs` while a handler runs. One renew at a time (a slow renew delays the
 * next instead of piling up). A renew answering false means the lease is gone: the heartbeat stops and
 * reports it once. A renew that throws (timeout, reconnect) is not a loss: the next beat tries again.
 */
export class Heartbeat {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;
  lost = false;
  beats = 0;
  errors = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly renew: () => Promise<boolean>,
    private readonly onLost: () => void,
  ) {}

  start(): this {
    this.schedule();
    return this;
  }

  /** Stop beating; resolves once a renew in flight has answered, so nothing renews after this. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.inFlight;
  }

  private schedule(): void {
    if (this.stopped || this.lost) return;
    this.timer = setTimeout(() => {
      this.inFlight = this.beat().finally(() => {
        this.inFlight = undefined;
        this.schedule();
      });
    }, this.intervalMs);
  }

  private async beat(): Promise<void> {
    try {
      const renewed = await this.renew();
      this.beats++;
      if (!renewed) {
        this.lost = true;
        this.onLost();
      }
    } catch {
      this.errors++;
    }
  }
}
