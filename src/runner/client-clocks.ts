import type { Recorder } from '../history/recorder.ts';
import type { Subject } from '../subject/types.ts';

/** Each client's subject runs under its offset (client c under offsets[c]; clients beyond the list, true). */
export function setClientClocks(subjects: readonly Subject[], offsets: readonly number[] | undefined): void {
  if (!offsets) return;
  offsets.forEach((ms, c) => subjects[c]?.clientClock?.set?.(ms));
}

/**
 * One fault record per client whose clock was off, spanning the run (an offset holds from before
 * the first operation to after the last), so a counterexample and the report say whose clock read
 * what, and whether the offset reached the implementation at all.
 */
export function recordClientClocks(
  recorder: Recorder,
  offsets: readonly number[],
  subjects: readonly Subject[],
  endedAt: number,
): void {
  offsets.forEach((ms, c) => {
    if (ms === 0) return;
    const door = subjects[c]?.clientClock;
    const reached = door?.set
      ? ''
      : ` (not reached: ${door?.reach ?? 'the implementation reads no clock the harness can move'})`;
    recorder.fault({
      kind: 'client-clock',
      target: `client c${c}`,
      lossy: false,
      startedAt: 0,
      endedAt,
      detail: `c${c}'s clock ${ms > 0 ? '+' : ''}${ms}ms (${ms > 0 ? 'ahead of' : 'behind'} true), all run${reached}`,
    });
  });
}
