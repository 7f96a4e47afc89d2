import type { Redis } from 'ioredis';
import type { Recorder } from '../history/recorder.ts';
import type { Subject } from '../subject/types.ts';

/**
 * The TTL probe on independent masters: each key is read on every master (each holds its own copy).
 * One copy without a TTL is what the probe is for (-1 is recorded), else the longest TTL left (-2 when
 * no master has it). A master that does not answer (frozen, killed) is named in a note; a key no
 * master answered for is unread, a finding, never a pass.
 */
export async function probeMasterTtls(
  masters: readonly Redis[],
  subject: Subject,
  keys: readonly string[],
  recorder: Recorder,
): Promise<{ unread: string[]; notes: string[] }> {
  const outcome = { unread: [] as string[], notes: [] as string[] };
  if (!subject.redisKey) return outcome;
  try {
    for (const key of keys) {
      const names = subject.storedKeys ? subject.storedKeys(key) : [subject.redisKey(key)];
      const read = await Promise.all(
        masters.map((m) => Promise.all(names.map(async (n) => Number(await m.pttl(n)))).catch((e: Error) => e)),
      );
      const ttls = read.filter((r): r is number[] => Array.isArray(r)).flat();
      const missing = read.flatMap((r, i) => (r instanceof Error ? [`n${i} (${r.message.split('\n')[0]})`] : []));
      if (read.every((r) => r instanceof Error)) {
        outcome.unread.push(`${key}: no master answered: ${missing.join(', ')}`);
        continue;
      }
      if (missing.length)
        outcome.notes.push(
          `${key}: probe read ${read.length - missing.length} of ${read.length} masters; not ${missing.join(', ')}`,
        );
      recorder.probes.push({
        type: 'probe',
        key,
        at: recorder.clock.now(),
        pttlMs: ttls.includes(-1) ? -1 : Math.max(...ttls),
      });
    }
  } finally {
    for (const m of masters) m.disconnect();
  }
  return outcome;
}
