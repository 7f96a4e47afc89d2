import { describe, expect, it } from 'vitest';
import { OperationBoard } from '../../../src/runner/operation-board.ts';

describe('the operation board aimed faults wait on', () => {
  it('answers a wait for an operation when its client invokes it, before or after the wait began', async () => {
    const board = new OperationBoard(2);
    const waiting = board.invoked(1, 0);
    const end = board.invoking(1, 0, 3, 42);
    const invoked = await waiting;
    expect(invoked).toMatchObject({ key: 3, at: 42 });
    expect(await board.invoked(1, 0)).toBe(invoked);
    let ended = false;
    void invoked!.ended.then(() => (ended = true));
    await Promise.resolve();
    expect(ended).toBe(false);
    end();
    await invoked!.ended;
    expect(ended).toBe(true);
  });

  it('answers undefined for an operation its client never reached, or a client the schedule does not have', async () => {
    const board = new OperationBoard(2);
    const waiting = board.invoked(0, 5);
    const other = board.invoked(1, 0);
    board.invoking(0, 0, 0, 1)();
    board.finishedClient(0);
    expect(await waiting).toBeUndefined();
    expect(await board.invoked(0, 6)).toBeUndefined();
    expect(await board.invoked(2, 0)).toBeUndefined();
    // Client 1 has not finished: its wait is still open, and is answered when it comes.
    board.invoking(1, 0, 2, 9);
    expect(await other).toMatchObject({ key: 2, at: 9 });
  });
});
