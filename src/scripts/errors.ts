/** Errors the script layer raises itself; every other Redis error passes through unchanged. */

/** EVALSHA answered NOSCRIPT again right after the script was loaded on the key's master.
 *  The loader retries once only: a second miss is a real fault, not something to loop on. */
export class NoScriptAfterReloadError extends Error {
  override readonly name = 'NoScriptAfterReloadError';
  constructor(
    readonly script: string,
    readonly expectedSha: string,
    /** Digest Redis reported when the body was loaded on the node(s) below. */
    readonly loadedSha: string,
    readonly nodes: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(
      `${script}: EVALSHA ${expectedSha} answered NOSCRIPT again after SCRIPT LOAD on ${nodes.join(', ')}` +
        (loadedSha === expectedSha
          ? ' (the cache was emptied again, or the slot moved)'
          : `; Redis hashed the body to ${loadedSha}, not ${expectedSha}`),
      options,
    );
  }
}

/** FCALL still found no such function after the library was loaded on every master. */
export class FunctionNotLoadedError extends Error {
  override readonly name = 'FunctionNotLoadedError';
  constructor(
    readonly fn: string,
    readonly library: string,
    options?: { cause?: unknown },
  ) {
    super(`FCALL ${fn}: function still not found after loading library ${library} on every master`, options);
  }
}

/** SCRIPT LOAD or FUNCTION LOAD refused a body (compile error, bad library header...). */
export class ScriptLoadError extends Error {
  override readonly name = 'ScriptLoadError';
  constructor(
    readonly origin: string,
    readonly node: string,
    options: { cause: unknown },
  ) {
    super(
      `could not load ${origin} on ${node}: ${(options.cause as Error)?.message ?? String(options.cause)}`,
      options,
    );
  }
}

/** The server has no Functions (Redis 6.2: FUNCTION is an unknown command): the Functions door cannot open there. */
export class FunctionsUnsupportedError extends ScriptLoadError {
  override readonly message: string;
  constructor(origin: string, node: string, options: { cause: unknown }) {
    super(origin, node, options);
    this.message = `cannot load ${origin} on ${node}: this server has no Functions (FUNCTION LOAD answered ${JSON.stringify(((options.cause as Error)?.message ?? String(options.cause)).split(/\n|, with args beginning with/)[0])}); Functions need Redis 7.0 or later, or use EVALSHA`;
  }
}

export function isUnknownCommand(error: unknown): boolean {
  return error instanceof Error && /^ERR unknown command/i.test(error.message);
}

/** A server that compiled a script's `#!` first line as Lua (no shebang support: Redis before 7.0). */
export function isShebangRefused(script: { readonly body: Uint8Array }, error: unknown): boolean {
  return (
    Buffer.from(script.body.subarray(0, 2)).toString() === '#!' &&
    error instanceof Error &&
    /user_script:1: unexpected symbol near '#'/.test(error.message)
  );
}

/** Redis's SHA1 of a body differs from the one the caller will send (caught when preloading). */
export class ScriptDigestMismatchError extends Error {
  override readonly name = 'ScriptDigestMismatchError';
  constructor(
    readonly origin: string,
    readonly expectedSha: string,
    readonly loadedSha: string,
  ) {
    super(`${origin}: Redis hashed the body to ${loadedSha}, but the caller would send ${expectedSha}`);
  }
}

export function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

export function isFunctionNotFound(error: unknown): boolean {
  return error instanceof Error && /^ERR Function not found/i.test(error.message);
}
