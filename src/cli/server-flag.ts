import { ClusterUsageError } from '../cluster/errors.ts';
import { parseServerSpec, resolveServer } from '../cluster/servers.ts';
import type { JobOptions } from '../certify/types.ts';
import { UsageError } from './exit-codes.ts';

/** The help line of `--server`, for every command that starts a cluster. */
export const SERVER_FLAG_HELP = `  --server S         the server a local cluster runs: redis-6.2 | redis-7.0 (Debian's) | redis-7.4 | redis-8.2 |
                     valkey-8.1 (installed on first use into .tools/servers), or a path to a redis-server or
                     valkey-server (default: CHAOSLUA_REDIS_SERVER, else redis-server on PATH, else Debian's)`;

/**
 * `--server NAME|PATH`, checked once at the edge and resolved to a binary before any cluster starts:
 * an unknown name, a missing path or a program that is no server is exit 2; a named server not yet
 * installed is installed now (one line says so), or is exit 3 when it cannot be. Only for clusters the
 * harness starts: a cluster given by address runs whatever it runs.
 */
export function serverFlag(command: string, text: string | undefined, clusterKind: string): JobOptions['server'] {
  if (text === undefined) return undefined;
  if (clusterKind !== 'local' && clusterKind !== 'netns')
    throw new UsageError(
      `${command}: --server applies to a cluster the harness starts (--cluster local or netns), not --cluster ${clusterKind}`,
    );
  let spec;
  try {
    spec = parseServerSpec(text);
  } catch (error) {
    if (error instanceof ClusterUsageError) throw new UsageError(`${command}: ${error.message}`);
    throw error;
  }
  if (spec.kind === 'default') return undefined;
  const { binary, version } = resolveServer(spec);
  return { asked: text.trim(), binary, version };
}
