/**
 * What a fault can aim at in a command: its name (as a rule names it) and its first key.
 */

/** Calls of one script are one operation to the implementation, whether ioredis sends the body
 *  (EVAL, first call on a connection, or after NOSCRIPT) or its digest (EVALSHA): one name for both. */
const SCRIPT_CALLS: Readonly<Record<string, string>> = {
  EVAL: 'EVALSHA',
  EVALSHA: 'EVALSHA',
  EVAL_RO: 'EVALSHA_RO',
  EVALSHA_RO: 'EVALSHA_RO',
};

/** Commands whose key count is their third argument (`EVALSHA sha numkeys key...`). */
const NUMKEYS_AT_2 = new Set(['EVALSHA', 'EVALSHA_RO', 'FCALL', 'FCALL_RO']);

/**
 * Commands that carry no data of the implementation's: connection set-up, cluster discovery, the
 * harness's own readiness pings and server administration. They are never observed as names a
 * fault may pick, so a drawn fault lands on what the implementation sends for its operations.
 */
const CONTROL = new Set([
  'ASKING',
  'AUTH',
  'CLIENT',
  'CLUSTER',
  'COMMAND',
  'CONFIG',
  'DBSIZE',
  'DEBUG',
  'DISCARD',
  'ECHO',
  'EXEC',
  'FUNCTION',
  'HELLO',
  'INFO',
  'LATENCY',
  'MEMORY',
  'MONITOR',
  'MULTI',
  'PING',
  'PSUBSCRIBE',
  'PUBLISH',
  'PUNSUBSCRIBE',
  'QUIT',
  'READONLY',
  'READWRITE',
  'RESET',
  'ROLE',
  'SCRIPT',
  'SELECT',
  'SLOWLOG',
  'SSUBSCRIBE',
  'SUBSCRIBE',
  'SUNSUBSCRIBE',
  'TIME',
  'UNSUBSCRIBE',
  'UNWATCH',
  'WAIT',
  'WAITAOF',
]);

/** Commands after which a connection's replies no longer answer its commands one to one. */
const UNTRACKABLE = new Set(['SUBSCRIBE', 'PSUBSCRIBE', 'SSUBSCRIBE', 'MONITOR']);

/** Plain reads: data commands that only look. */
const READS = new Set([
  'BITCOUNT',
  'BITPOS',
  'DUMP',
  'EXISTS',
  'EXPIRETIME',
  'GET',
  'GETBIT',
  'GETRANGE',
  'HEXISTS',
  'HGET',
  'HGETALL',
  'HKEYS',
  'HLEN',
  'HMGET',
  'HSTRLEN',
  'HVALS',
  'LINDEX',
  'LLEN',
  'LRANGE',
  'MGET',
  'PEXPIRETIME',
  'PTTL',
  'SCARD',
  'SISMEMBER',
  'SMEMBERS',
  'SMISMEMBER',
  'STRLEN',
  'TTL',
  'TYPE',
  'XLEN',
  'XRANGE',
  'ZCARD',
  'ZCOUNT',
  'ZRANGE',
  'ZRANK',
  'ZSCORE',
]);

/** Scripts and functions: they may read and write in one command. */
const SCRIPTS = new Set(['EVALSHA', 'EVALSHA_RO', 'FCALL', 'FCALL_RO']);

export function isPlainRead(name: string): boolean {
  return READS.has(name);
}

/** A data command that is neither a plain read nor a script: it changes data (DEL, SET, INCR, PEXPIRE...). */
export function isPlainWrite(name: string): boolean {
  return isDataCommand(name) && !READS.has(name) && !SCRIPTS.has(name);
}

/** The name a rule matches: upper case, script calls folded into one. */
export function ruleName(command: string): string {
  const upper = command.toUpperCase();
  return SCRIPT_CALLS[upper] ?? upper;
}

/** True for a command of the implementation's data, false for connection and cluster control. */
export function isDataCommand(name: string): boolean {
  return !CONTROL.has(name);
}

/**
 * After this command, stop pairing replies with commands on the connection: subscriptions and
 * MONITOR send unasked values, and CLIENT REPLY OFF|SKIP answers nothing. (Other CLIENT subcommands
 * are everyday: ioredis sends CLIENT SETINFO on every new connection.)
 */
export function breaksPairing(name: string, args: readonly (Buffer | null)[]): boolean {
  if (name === 'CLIENT') return args[1]?.toString('latin1').toUpperCase() === 'REPLY';
  return UNTRACKABLE.has(name);
}

/** The command's first key, from its first arguments (name first), or undefined when it has none. */
export function firstKey(name: string, args: readonly (Buffer | null)[]): Buffer | undefined {
  if (!isDataCommand(name)) return undefined;
  if (NUMKEYS_AT_2.has(name)) {
    const numkeys = Number(args[2]?.toString('latin1'));
    return numkeys > 0 ? (args[3] ?? undefined) : undefined;
  }
  return args[1] ?? undefined;
}
