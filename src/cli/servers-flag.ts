import fs from 'node:fs';
import { ClusterUsageError } from '../cluster/errors.ts';
import { parseServerSpec, resolveServer } from '../cluster/servers.ts';
import { UsageError } from './exit-codes.ts';

/** The help line of `certify --servers`. */
export const SERVERS_FLAG_HELP = `  --servers LIST     a server matrix: the job once per server, one after another, with the same seed (each on its
                     lanes, as --clusters says), each server's run folder inside one folder with matrix.json (a
                     verdict per server; certified only when every server is) and junit.xml (a case per server);
                     names or paths as --server takes them, e.g. redis-6.2,redis-7.4,valkey-8.1; refused
                     with --server, --shard or --baseline (default: none, one job on one server)`;

/** One server of a matrix: as asked, where its run folder goes (a name fit for a folder), and its binary. */
export interface MatrixServerOption {
  readonly asked: string;
  readonly folder: string;
  readonly server: { readonly asked: string; readonly binary: string };
}

/**
 * `--servers a,b,c`, checked once at the edge before any cluster starts: a non-empty list, no server
 * twice (by name, or by the binary two spellings resolve to), not with the flags that name one job
 * (--server, --shard, --baseline); each entry checked and resolved as `--server` resolves it (an
 * unknown name or a bad path is exit 2, a named server installed on first use).
 */
export function serversFlag(
  command: string,
  text: string | undefined,
  clusterKind: string,
  others: { server?: string; shard?: string; baseline?: string },
): MatrixServerOption[] | undefined {
  if (text === undefined) return undefined;
  for (const flag of ['server', 'shard', 'baseline'] as const) {
    if (others[flag] !== undefined)
      throw new UsageError(
        `${command}: --servers and --${flag} cannot be used together (${flag === 'server' ? '--servers names every server of the matrix' : `--${flag} applies to one job on one server`})`,
      );
  }
  const entries = text.split(',').map((s) => s.trim());
  if (entries.length === 0 || entries.some((e) => e === ''))
    throw new UsageError(
      `${command}: --servers: expected a comma list of server names or paths, got '${text.length > 40 ? `${text.slice(0, 40)}... (${text.length} characters)` : text}'`,
    );
  const seen = new Map<string, string>();
  for (const e of entries) {
    if (seen.has(e)) throw new UsageError(`${command}: --servers: ${e} given twice`);
    seen.set(e, e);
  }
  if (clusterKind !== 'local' && clusterKind !== 'netns')
    throw new UsageError(
      `${command}: --servers applies to clusters the harness starts (--cluster local or netns), not --cluster ${clusterKind}`,
    );
  const byBinary = new Map<string, string>();
  const folders = new Set<string>();
  return entries.map((asked, i) => {
    let binary: string;
    try {
      binary = resolveServer(parseServerSpec(asked, '--servers')).binary;
    } catch (error) {
      if (error instanceof ClusterUsageError) throw new UsageError(`${command}: ${error.message}`);
      throw error;
    }
    const server = { asked, binary };
    const real = fs.realpathSync(binary);
    const twin = byBinary.get(real);
    if (twin !== undefined)
      throw new UsageError(`${command}: --servers: ${asked} and ${twin} are the same binary (${real})`);
    byBinary.set(real, asked);
    let folder = asked.includes('/')
      ? `${i + 1}-${asked.replace(/^.*\/(?=[^/]+$)/, '').replace(/[^A-Za-z0-9._-]/g, '_')}`
      : asked;
    while (folders.has(folder)) folder = `${folder}-${i + 1}`;
    folders.add(folder);
    return { asked, folder, server };
  });
}
