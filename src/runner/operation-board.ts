import type { InvokedOperation, OperationWatch } from '../faults/index.ts';

type Waiter = (op: InvokedOperation | undefined) => void;

/**
 * The clients' operations as they are invoked, for faults aimed at one of them (OperationWatch): a
 * client posts each operation as it invokes it and settles it when it ends. A fault waiting for an
 * operation that never comes is answered undefined once its client has finished its steps.
 */
export class OperationBoard implements OperationWatch {
  private readonly posted = new Map<string, InvokedOperation>();
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly finished = new Set<number>();

  /** `clients`: how many the schedule has (a fault aimed past them waits for nothing). */
  constructor(private readonly clients: number) {}

  /** Client `client` invokes its operation number `op` on logical key `key` at `at`: call the result when it ends. */
  invoking(client: number, op: number, key: number, at: number): () => void {
    let end!: () => void;
    const invoked: InvokedOperation = { key, at, ended: new Promise<void>((resolve) => (end = resolve)) };
    const id = OperationBoard.id(client, op);
    this.posted.set(id, invoked);
    for (const resolve of this.waiting.get(id) ?? []) resolve(invoked);
    this.waiting.delete(id);
    return end;
  }

  /** Client `client` has no step left: whoever waits for one of its operations waits in vain. */
  finishedClient(client: number): void {
    this.finished.add(client);
    for (const [id, waiters] of this.waiting) {
      if (!id.startsWith(`${client}:`)) continue;
      for (const resolve of waiters) resolve(undefined);
      this.waiting.delete(id);
    }
  }

  invoked(client: number, op: number): Promise<InvokedOperation | undefined> {
    const id = OperationBoard.id(client, op);
    const posted = this.posted.get(id);
    if (posted) return Promise.resolve(posted);
    if (this.finished.has(client) || !(client >= 0 && client < this.clients)) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiting.set(id, [...(this.waiting.get(id) ?? []), resolve]));
  }

  private static id(client: number, op: number): string {
    return `${client}:${op}`;
  }
}
