/**
 * `merge` into a server matrix: per-server certificates from separate machines (each `certify --server X`,
 * or the shards of one), and matrices (`certify --servers`), combined into one matrix. Pure.
 *
 * They must be one implementation under one plan on several servers: the same pattern, implementation
 * (sha256), seed, faults asked, settings and durability, so that a difference between verdicts is the
 * servers'. A server is who the running node said it was (redis or valkey, and its version), never the
 * name it was asked by: one verdict per server, so a server given twice is refused. The shards of one
 * server are merged first (./merge.ts), as a merge of shards alone would.
 */
import path from 'node:path';
import type { Certificate } from '../report/certificate.ts';
import type { MatrixCertificate, MatrixServer } from '../report/matrix-certificate.ts';
import { MergeError, mergeCertificates } from './merge.ts';
import { matrixCertificate, matrixServer, type MatrixShared } from './matrix.ts';
import type { CertificateFile } from './matrix-file.ts';

/** The server a certificate was earned on, as its node named itself: `valkey 8.1.8`. */
export function serverIdentity(c: Certificate): string {
  if (c.redis.version === 'not started') return `${c.redis.asked ?? 'the default server'} (not started)`;
  return `${c.redis.server ?? 'redis'} ${c.redis.version}`;
}

const entryIdentity = (s: MatrixServer) =>
  s.version === 'not started' ? `${s.asked} (not started)` : `${s.server ?? 'redis'} ${s.version}`;

/** Whether these inputs make a matrix: a matrix among them, or certificates of more than one server. */
export function isMatrixMerge(inputs: readonly CertificateFile[]): boolean {
  if (inputs.some((i) => 'matrix' in i)) return true;
  return new Set(inputs.map((i) => serverIdentity((i as { certificate: Certificate }).certificate))).size > 1;
}

/** What a matrix's servers must share, in words, or undefined when `c` shares it with `first`. */
function differs(c: MatrixShared, first: MatrixShared): string | undefined {
  const faults = (s: MatrixShared) => (s.faultsAsked ? [...s.faultsAsked].sort().join(',') : 'all');
  const settings = (s: MatrixShared) => JSON.stringify(s.settings ?? {});
  if (c.pattern !== first.pattern) return `pattern ${c.pattern}, but {first} is ${first.pattern}`;
  if (c.implementation.sha256 !== first.implementation.sha256)
    return `implementation sha256 ${c.implementation.sha256.slice(0, 12)}…, but {first} has ${first.implementation.sha256.slice(0, 12)}… (a matrix is one implementation on several servers)`;
  if (c.seed !== first.seed)
    return `seed ${c.seed}, but {first} has ${first.seed} (every server of a matrix runs the same schedules)`;
  if (faults(c) !== faults(first))
    return `faults ${faults(c)}, but {first} has ${faults(first)} (every server of a matrix runs the same faults)`;
  if (settings(c) !== settings(first)) return `settings ${settings(c)}, but {first} has ${settings(first)}`;
  if ((c.durability ?? 'none') !== (first.durability ?? 'none'))
    return `durability ${c.durability ?? 'none'}, but {first} has ${first.durability ?? 'none'}`;
  return undefined;
}

export function mergeMatrix(
  inputs: readonly CertificateFile[],
  issuedAt = new Date().toISOString(),
): MatrixCertificate {
  if (inputs.length === 0) throw new MergeError('no certificates to merge');
  const shared = (i: CertificateFile): MatrixShared => ('matrix' in i ? i.matrix : i.certificate);
  const first = inputs[0];
  for (const input of inputs) {
    const problem = differs(shared(input), shared(first));
    if (problem) throw new MergeError(`${input.file}: ${problem.replace('{first}', first.file)}`);
  }
  // Certificates by server, in the order given; each group is one certificate or the shards of one budget.
  const groups = new Map<string, { file: string; certificate: Certificate }[]>();
  for (const input of inputs)
    if ('certificate' in input)
      groups.set(serverIdentity(input.certificate), [...(groups.get(serverIdentity(input.certificate)) ?? []), input]);
  const entries: { readonly identity: string; readonly file: string; readonly entry: MatrixServer }[] = [];
  for (const [identity, group] of groups) {
    const shards = group.filter((g) => g.certificate.shard);
    if (shards.length > 0 && shards.length < group.length)
      throw new MergeError(
        `${group.find((g) => !g.certificate.shard)!.file}: ${identity} is given both as a whole job and as shards (${shards[0].file})`,
      );
    if (shards.length === 0 && group.length > 1)
      throw new MergeError(
        `${group[1].file}: ${identity} is also ${group[0].file} (a matrix has one verdict per server)`,
      );
    const certificate = shards.length ? mergeCertificates(group) : group[0].certificate;
    const asked = certificate.redis.asked ?? identity;
    entries.push({
      identity,
      file: group[0].file,
      entry: matrixServer(asked, certificate, group.map((g) => g.file).join(', ')),
    });
  }
  for (const input of inputs) {
    if (!('matrix' in input)) continue;
    // A matrix's certificates are named relative to it: named here from where it was read.
    for (const s of input.matrix.servers)
      entries.push({
        identity: entryIdentity(s),
        file: input.file,
        entry: { ...s, certificate: s.certificate && path.join(path.dirname(input.file), s.certificate) },
      });
  }
  const seen = new Map<string, string>();
  for (const { identity, file } of entries) {
    const other = seen.get(identity);
    if (other !== undefined)
      throw new MergeError(`${file}: ${identity} is also in ${other} (a matrix has one verdict per server)`);
    seen.set(identity, file);
  }
  // The servers ran one after another, or on separate machines: the matrix took what they took together.
  const seconds = entries.reduce((a, e) => a + e.entry.seconds, 0);
  return matrixCertificate(
    shared(first),
    entries.map((e) => e.entry),
    seconds,
    issuedAt,
  );
}
