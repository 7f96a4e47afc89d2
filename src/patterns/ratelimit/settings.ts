import type { PatternSetting } from '../../pattern.ts';

/**
 * What a job may set for the limiter's sessions (`--set limit=N --set window=S`). The defaults are
 * what the sessions drew before these were settings: every pinned seed draws the same schedule.
 */
export const ratelimitSettings = {
  // At least 1: with limit 0 the GET-first script still allows the first hit of a window while
  // INCR-first blocks it (./model.ts), so the reference itself has no single answer. At most 10: a
  // schedule draws 1-5 hits a session from 2-8 clients over 1-4 keys, mostly within its first
  // second, and a limit no window reaches is never blocked, so limit-respected (what a limiter is
  // certified for) is never put to the test. Of 400 schedules drawn, a window held more than 3 hits
  // on one key in 98%, more than 10 in at most 46%, more than 15 in at most 22%.
  limit: { description: 'hits a window allows on one key', min: 1, max: 10, default: 3 },
  // Whole seconds, as the scripts EXPIRE; 0 would delete each counter as it is made. At most 10:
  // a session that waits out its window (lease-expiry) pauses a whole window, so each such run
  // lasts at least that long, and a longer window reaches no state a 10 s one does not (its expiry
  // is the same virtual operation, placed later).
  window: { description: 'length of a window, in seconds', min: 1, max: 10, default: 1 },
} as const satisfies Readonly<Record<string, PatternSetting>>;
