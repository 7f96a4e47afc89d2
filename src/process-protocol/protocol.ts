/**
 * The process protocol, `chaoslua-process/1` (docs/process-protocol.md): newline-delimited JSON
 * over the implementation's stdin (harness -> program) and stdout (program -> harness).
 * This file only names the messages and validates what a program sends; it does no I/O.
 */

export const PROTOCOL_VERSION = 'chaoslua-process/1';
/**
 * 1.1 adds optional fields to the program's hello (capabilities, keys) and the holder handle of a
 * request. The harness still sends `protocol: chaoslua-process/1`, so a 1.0 program that compares it
 * exactly keeps working, and lists in `versions` what it accepts back.
 */
export const PROTOCOL_VERSION_1_1 = 'chaoslua-process/1.1';
export const ACCEPTED_VERSIONS = [PROTOCOL_VERSION, PROTOCOL_VERSION_1_1] as const;

export interface Address {
  readonly host: string;
  readonly port: number;
}

// ---- harness -> program --------------------------------------------------------------------

export interface HelloMessage {
  readonly type: 'hello';
  readonly protocol: typeof PROTOCOL_VERSION;
  /** The versions the harness accepts in the hello reply (1.1: the reply may declare capabilities and keys). */
  readonly versions: readonly string[];
  /** The pattern's name (one of the registry's). */
  readonly pattern: string;
  /** Addresses any client may dial first (client proxies of a local cluster). */
  readonly seeds: readonly Address[];
  /** Announced "host:port" (what CLUSTER SLOTS / MOVED name) -> the address to dial instead. */
  readonly natMap: Readonly<Record<string, Address>>;
  /**
   * Only on `--topology masters`: every independent master's address, in node order, to dial one
   * client each (as a Redlock user holds one per server). There is no Redis Cluster then: `seeds` lists
   * the same addresses and `natMap` maps each to itself. An optional field, so still chaoslua-process/1.
   */
  readonly masters?: readonly Address[];
  /**
   * Only on `--topology sentinel`: the Sentinels' addresses and the name they watch the primary by
   * (ioredis `{ sentinels, name }`, redis-py's Sentinel(...).master_for(name), go-redis's
   * NewFailoverClient). The Sentinels name the primary by its announced address: dial what `natMap`
   * maps it to. There is no Redis Cluster then: `seeds` lists every data node's client address. An
   * optional field, so still chaoslua-process/1.
   */
  readonly sentinel?: { readonly sentinels: readonly Address[]; readonly name: string };
  /**
   * The pattern's operations, in its order: each one's name, its arguments' names in the order the
   * pattern declares them (requests carry them by name) and its answer in words. A program serving a
   * pattern a team declared learns its operations here. An optional field, so still chaoslua-process/1.
   */
  readonly operations?: readonly HelloOperation[];
  readonly options: HelloOptions;
}

export interface HelloOperation {
  readonly name: string;
  readonly args: readonly string[];
  readonly answer: string;
}

export interface HelloOptions {
  /** Logical clients that may have requests in flight at once (a hint for pool sizes). */
  readonly clients: number;
  /** The harness gives up on a request after this long; answer (with an error if need be) sooner. */
  readonly requestTimeoutMs: number;
  /**
   * Sent only with `--durability wait:N:T` (optional: a program that ignores it keeps working, its
   * writes then count as not acknowledged): after each write, send `WAIT replicas timeoutMs` on the
   * connection that ran it, and put WAIT's answer in the response's `acknowledgedReplicas`.
   */
  readonly durability?: { readonly replicas: number; readonly timeoutMs: number };
}

export interface RequestMessage {
  readonly type: 'request';
  readonly id: number;
  /** The logical client issuing it (informational: one process serves them all). */
  readonly client: number;
  readonly op: string;
  /** The ready Redis key: pass it as KEYS[1], never rebuild it. */
  readonly key: string;
  /** The model input's fields except `op`. */
  readonly args: Readonly<Record<string, unknown>>;
}

export interface ShutdownMessage {
  readonly type: 'shutdown';
}

// ---- program -> harness --------------------------------------------------------------------

export interface HelloReply {
  readonly type: 'hello';
  readonly protocol: string;
  readonly name: string;
  readonly version: string;
  readonly patterns: readonly string[];
  /** 1.1: `{ <op>: '<level>' | { level, handle } }` for the pattern asked (absent: every operation, exactly). */
  readonly capabilities?: unknown;
  /** 1.1: `{ prefix?, suffix? }`: where the program keeps a key's state instead of the key handed over. */
  readonly keys?: unknown;
}

export interface RefuseReply {
  readonly type: 'refuse';
  readonly reason: string;
}

export type ResponseReply =
  | {
      readonly type: 'response';
      readonly id: number;
      readonly ok: true;
      readonly result: unknown;
      readonly acknowledgedReplicas?: number;
    }
  | {
      readonly type: 'response';
      readonly id: number;
      readonly ok: false;
      readonly error: string;
      readonly refused?: true;
    };

export type ProgramMessage = HelloReply | RefuseReply | ResponseReply;

/** A line the program sent, parsed: the message, or why it is not one. */
export type Parsed = { readonly message: ProgramMessage } | { readonly problem: string };

/** Longest line shown in a finding: enough to recognise it, short enough for one summary line. */
const EXCERPT = 80;

export function excerpt(line: string): string {
  return JSON.stringify(line.length > EXCERPT ? `${line.slice(0, EXCERPT)}...` : line);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';

/** Validate one stdout line. Unknown extra fields are allowed (later minor versions may add some). */
export function parseProgramLine(line: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { problem: `not JSON: ${excerpt(line)}` };
  }
  if (!isObject(value)) return { problem: `not a JSON object: ${excerpt(line)}` };
  switch (value.type) {
    case 'hello': {
      const { protocol, name, version, patterns } = value;
      if (
        !isString(protocol) ||
        !isString(name) ||
        !isString(version) ||
        !Array.isArray(patterns) ||
        !patterns.every(isString)
      ) {
        return { problem: `hello needs protocol, name, version (strings) and patterns (strings): ${excerpt(line)}` };
      }
      const declared = {
        ...(value.capabilities === undefined ? {} : { capabilities: value.capabilities }),
        ...(value.keys === undefined ? {} : { keys: value.keys }),
      };
      return { message: { type: 'hello', protocol, name, version, patterns, ...declared } };
    }
    case 'refuse':
      return { message: { type: 'refuse', reason: isString(value.reason) ? value.reason : '(no reason given)' } };
    case 'response': {
      const { id, ok } = value;
      if (typeof id !== 'number' || !Number.isSafeInteger(id))
        return { problem: `response without an integer id: ${excerpt(line)}` };
      if (ok === true) {
        // null is the nil reply; a missing result is a mistake, not nil.
        if (!('result' in value)) return { problem: `response ${id} has ok:true but no result: ${excerpt(line)}` };
        const acknowledged = value.acknowledgedReplicas;
        if (acknowledged === undefined) return { message: { type: 'response', id, ok: true, result: value.result } };
        if (typeof acknowledged !== 'number' || !Number.isSafeInteger(acknowledged) || acknowledged < 0) {
          return { problem: `response ${id} has acknowledgedReplicas that is not an integer >= 0: ${excerpt(line)}` };
        }
        return {
          message: { type: 'response', id, ok: true, result: value.result, acknowledgedReplicas: acknowledged },
        };
      }
      if (ok === false) {
        if (!isString(value.error))
          return { problem: `response ${id} has ok:false but no error text: ${excerpt(line)}` };
        // 1.1: the program's word that the library refused before writing anything (src/plan/refusal.ts).
        if (value.refused === true)
          return { message: { type: 'response', id, ok: false, error: value.error, refused: true } };
        if (value.refused !== undefined && value.refused !== false)
          return { problem: `response ${id} has refused that is not true or false: ${excerpt(line)}` };
        return { message: { type: 'response', id, ok: false, error: value.error } };
      }
      return { problem: `response ${id} needs ok: true or false: ${excerpt(line)}` };
    }
    default:
      return { problem: `unknown message type ${JSON.stringify(value.type)}: ${excerpt(line)}` };
  }
}

/** A model input as a request's op and args: every field but `op`, unchanged. */
export function requestParts(input: unknown): { op: string; args: Record<string, unknown> } {
  if (!isObject(input) || !isString(input.op))
    throw new TypeError(`process subject: not a model input: ${JSON.stringify(input)}`);
  const { op, ...args } = input;
  return { op, args };
}
