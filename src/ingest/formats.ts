/** The history formats `chaoslua check` reads, and how one is recognised when not named. */
import type { CheckableModelName } from '../patterns/checkable.ts';
import { looksLikeJson } from './chaoslua-json.ts';
import { looksLikeEtcdLog } from './porcupine-etcd.ts';

export const FORMATS = ['chaoslua', 'jepsen', 'porcupine-etcd', 'porcupine-kv'] as const;
export type HistoryFormat = (typeof FORMATS)[number];

export function isHistoryFormat(name: string): name is HistoryFormat {
  return (FORMATS as readonly string[]).includes(name);
}

/** The model a format holds when it holds only one. */
export const FORMAT_MODEL: Partial<Record<HistoryFormat, CheckableModelName>> = {
  'porcupine-etcd': 'register',
  'porcupine-kv': 'kv',
};

// Porcupine's kv test parser matches exactly this shape; a Jepsen map with more fields is `jepsen`.
const KV_LINE = /^\{:process \d+, :type :(invoke|ok), :f :(get|put|append), :key "[^"]*", :value (nil|"[^"]*")\}$/;

/**
 * The format of `text` from its first line that is neither blank nor an EDN comment (`;`), or
 * undefined when none fits. A file with no such line is an empty EDN history: Jepsen writes one for
 * a test that invoked nothing, and Knossos calls it valid.
 */
export function detectFormat(text: string): HistoryFormat | undefined {
  if (looksLikeJson(text)) return 'chaoslua';
  const first = text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith(';'));
  if (first === undefined) return 'jepsen';
  if (looksLikeEtcdLog(first)) return 'porcupine-etcd';
  if (KV_LINE.test(first)) return 'porcupine-kv';
  // One operation map per line, or the whole history as one vector or list of them (Knossos reads both).
  if (/^(\{:|\[|\(|#)/.test(first)) return 'jepsen';
  return undefined;
}
