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
        (loadedSha === expectedSha ? ' (the cache was emptied again, or the slot moved)' : `; Redis hashed the body to ${loadedSha}, not ${expectedSha}`),
      options,
    );
  }
}

/** FCALL still found no such function after the library was loaded on every master. */
export class FunctionNotLoadedError extends Error {
  override readonly name = 'FunctionNotLoadedError';
  constructor(readonly fn: string, readonly library: string, options?: { cause?: unknown }) {
    super(`FCALL ${fn}: function still not found after loading library ${library} on every master`, options);
  }
}

/** SCRIPT LOAD or FUNCTION LOAD refused a body (compile error, bad library header...). */
export class ScriptLoadError extends Error {
  override readonly name = 'ScriptLoadError';
  constructor(readonly origin: string, readonly node: string, options: { cause: unknown }) {
    super(`could not load ${origin} on ${node}: ${(options.cause as Error)?.message ?? String(options.cause)}`, options);
  }
}

/** Redis's SHA1 of a body differs from the one the caller will send (caught when preloading). */
export class ScriptDigestMismatchError extends Error {
  override readonly name = 'ScriptDigestMismatchError';
  constructor(readonly origin: string, readonly expectedSha: string, readonly loadedSha: string) {
    super(`${origin}: Redis hashed the body to ${loadedSha}, but the caller would send ${expectedSha}`);
  }
}

export function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

export function isFunctionNotFound(error: unknown): boolean {
  return error instanceof Error && /^ERR Function not found/i.test(error.message);
}
