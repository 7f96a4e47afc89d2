/**
 * The server a lint is for, when it is known (`lint --server`, `certify --server`): what its
 * `--version` says decides what its Lua loader takes. Without one, the rules speak of Redis 7.
 */
export interface LintTarget {
  /** As its findings name it: "redis 6.2.5". */
  readonly server: string;
  /** Does its loader take a `#!lua` first line (EVAL flags, Functions libraries)? Redis and Valkey 7.0 and later. */
  readonly shebang: boolean;
  /**
   * The scripts run through chaoslua's own runner (`certify --impl lua:DIR`), which sends a refused
   * `#!` line again as a Lua comment: then advice for the team's own client, not a refusal.
   */
  readonly runnerComments?: boolean;
}

/** The target of a server binary's version. */
export function lintTargetOf(
  version: { readonly server: string; readonly version: string; readonly major: number },
  runnerComments = false,
): LintTarget {
  return {
    server: `${version.server} ${version.version}`,
    shebang: version.major >= 7,
    ...(runnerComments ? { runnerComments } : {}),
  };
}

export const SERVER_RULE = {
  id: 'server-support',
  description: "the script needs what the target server lacks ('#!lua' first lines before Redis 7.0)",
  severity: 'error',
} as const;
