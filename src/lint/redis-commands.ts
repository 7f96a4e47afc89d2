/**
 * Which arguments of a Redis command are key names, in the style of Redis's own COMMAND
 * output: positions count the arguments after the command name from 0; a negative `last`
 * counts from the end (-1 is the last argument).
 */
export type KeySpec =
  | { kind: 'range'; first: number; last: number; step: number }
  /** `numkeys` at `countAt`, followed by that many keys; `fixed` keys come before it. */
  | { kind: 'numkeys'; countAt: number; fixed: number[] };

const range = (first: number, last: number, step = 1): KeySpec => ({ kind: 'range', first, last, step });
const numkeys = (countAt: number, fixed: number[] = []): KeySpec => ({ kind: 'numkeys', countAt, fixed });

const FIRST_ARGUMENT_IS_KEY = `
  GET SET SETNX SETEX PSETEX GETSET GETDEL GETEX APPEND STRLEN GETRANGE SETRANGE SUBSTR
  INCR INCRBY INCRBYFLOAT DECR DECRBY GETBIT SETBIT BITCOUNT BITPOS BITFIELD BITFIELD_RO
  EXPIRE PEXPIRE EXPIREAT PEXPIREAT EXPIRETIME PEXPIRETIME TTL PTTL PERSIST TYPE DUMP RESTORE
  HGET HSET HSETNX HMSET HMGET HGETALL HDEL HEXISTS HINCRBY HINCRBYFLOAT HKEYS HVALS HLEN
  HSTRLEN HRANDFIELD HSCAN HEXPIRE HPEXPIRE HTTL HPTTL HPERSIST
  LPUSH RPUSH LPUSHX RPUSHX LPOP RPOP LRANGE LLEN LINDEX LSET LREM LTRIM LINSERT LPOS
  SADD SREM SMEMBERS SISMEMBER SMISMEMBER SCARD SPOP SRANDMEMBER SSCAN
  ZADD ZREM ZRANGE ZRANGEBYSCORE ZREVRANGEBYSCORE ZRANGEBYLEX ZREVRANGEBYLEX ZREVRANGE ZSCORE
  ZMSCORE ZINCRBY ZCARD ZCOUNT ZLEXCOUNT ZRANK ZREVRANK ZREMRANGEBYRANK ZREMRANGEBYSCORE
  ZREMRANGEBYLEX ZPOPMIN ZPOPMAX ZSCAN ZRANDMEMBER
  XADD XLEN XRANGE XREVRANGE XDEL XTRIM XACK XCLAIM XAUTOCLAIM XPENDING XSETID
  PFADD GEOADD GEOPOS GEODIST GEOHASH GEOSEARCH SORT SORT_RO
`;

const SPECS: Record<string, KeySpec> = Object.fromEntries(
  FIRST_ARGUMENT_IS_KEY.trim()
    .split(/\s+/)
    .map((name) => [name, range(0, 0)]),
);
for (const name of [
  'DEL',
  'UNLINK',
  'EXISTS',
  'TOUCH',
  'MGET',
  'SINTER',
  'SUNION',
  'SDIFF',
  'PFCOUNT',
  'PFMERGE',
  'SINTERSTORE',
  'SUNIONSTORE',
  'SDIFFSTORE',
])
  SPECS[name] = range(0, -1);
for (const name of ['BLPOP', 'BRPOP', 'BZPOPMIN', 'BZPOPMAX']) SPECS[name] = range(0, -2);
for (const name of ['MSET', 'MSETNX']) SPECS[name] = range(0, -1, 2);
for (const name of [
  'RENAME',
  'RENAMENX',
  'RPOPLPUSH',
  'BRPOPLPUSH',
  'LMOVE',
  'BLMOVE',
  'SMOVE',
  'COPY',
  'LCS',
  'ZRANGESTORE',
  'GEOSEARCHSTORE',
])
  SPECS[name] = range(0, 1);
SPECS.BITOP = range(1, -1);
for (const name of ['ZUNIONSTORE', 'ZINTERSTORE', 'ZDIFFSTORE']) SPECS[name] = numkeys(1, [0]);
for (const name of ['ZUNION', 'ZINTER', 'ZDIFF', 'SINTERCARD', 'ZINTERCARD', 'LMPOP', 'ZMPOP'])
  SPECS[name] = numkeys(0);
for (const name of ['BLMPOP', 'BZMPOP']) SPECS[name] = numkeys(1);

export function keySpecOf(command: string): KeySpec | undefined {
  return SPECS[command.toUpperCase()];
}

/**
 * The argument positions holding keys for a call with `argumentCount` arguments after the
 * command name. `numkeysValue` is the literal numkeys argument, when the spec needs one and the
 * script gives a literal; without it only the fixed keys are known.
 */
export function keyPositions(spec: KeySpec, argumentCount: number, numkeysValue?: number): number[] {
  if (spec.kind === 'numkeys') {
    const counted =
      numkeysValue === undefined ? [] : Array.from({ length: numkeysValue }, (_, i) => spec.countAt + 1 + i);
    return [...spec.fixed, ...counted].filter((position) => position < argumentCount);
  }
  const last = spec.last < 0 ? argumentCount + spec.last : spec.last;
  const positions: number[] = [];
  for (let position = spec.first; position <= last && position < argumentCount; position += spec.step)
    positions.push(position);
  return positions;
}

/** Commands that change data; the owner-check rule requires a guard before these, and a script calling one is a write (eval-shebang). */
export const MUTATING_COMMANDS: ReadonlySet<string> = new Set(
  `
  SET SETNX SETEX PSETEX GETSET GETDEL GETEX APPEND SETRANGE INCR INCRBY INCRBYFLOAT DECR DECRBY
  SETBIT BITFIELD BITOP MSET MSETNX DEL UNLINK EXPIRE PEXPIRE EXPIREAT PEXPIREAT PERSIST RESTORE
  RENAME RENAMENX COPY HSET HSETNX HMSET HDEL HINCRBY HINCRBYFLOAT HEXPIRE HPEXPIRE HPERSIST
  LPUSH RPUSH LPUSHX RPUSHX LPOP RPOP LSET LREM LTRIM LINSERT LMOVE RPOPLPUSH LMPOP
  SADD SREM SPOP SMOVE SINTERSTORE SUNIONSTORE SDIFFSTORE
  ZADD ZREM ZINCRBY ZREMRANGEBYRANK ZREMRANGEBYSCORE ZREMRANGEBYLEX ZPOPMIN ZPOPMAX ZMPOP
  ZUNIONSTORE ZINTERSTORE ZDIFFSTORE ZRANGESTORE XADD XDEL XTRIM PFADD PFMERGE GEOADD
`
    .trim()
    .split(/\s+/),
);

/** Commands whose reply depends on something other than the script's inputs and the data. */
export const NONDETERMINISTIC_COMMANDS: ReadonlySet<string> = new Set([
  'TIME',
  'RANDOMKEY',
  'SRANDMEMBER',
  'SPOP',
  'HRANDFIELD',
  'ZRANDMEMBER',
]);

/** Commands that walk the whole keyspace of a node. */
export const KEYSPACE_COMMANDS: ReadonlySet<string> = new Set(['KEYS', 'SCAN']);

/** Replies that count how much of a key exists: 0 means the key (or field) was found absent. */
export const PRESENCE_COUNT_COMMANDS: ReadonlySet<string> = new Set([
  'EXISTS',
  'HEXISTS',
  'HLEN',
  'LLEN',
  'SCARD',
  'ZCARD',
  'STRLEN',
  'XLEN',
]);
