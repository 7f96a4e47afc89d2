import { CertificateError } from '../certify/certificate-file.ts';
import { mergeCertificates, MergeError, type ShardCertificate } from '../certify/merge.ts';
import { matrixExitCode, matrixJunitCases, matrixSummary } from '../certify/matrix.ts';
import { readCertificateFile } from '../certify/matrix-file.ts';
import { isMatrixMerge, mergeMatrix } from '../certify/matrix-merge.ts';
import type { MatrixCertificate } from '../report/matrix-certificate.ts';
import type { Certificate } from '../report/certificate.ts';
import { junitXml } from '../report/junit.ts';
import { parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { checkOutFile, writeOutFile } from './out-file.ts';
import { processIo, type Io } from './io.ts';

export const summary = "combine the certificates of 'certify --shard k/n' jobs into one verdict";

export const HELP = `usage: chaoslua merge CERT... --out FILE [options]

Combine the certificate.json of every shard of one budget (certify --shard k/n, the same --seed,
pattern and implementation) into the certificate one job of all their runs would have written:
runs, operations, faults, discarded runs and replication losses summed, invariants failed if any
shard's failed (counterexamples listed), findings listed by shard, evidence judged over all the
runs. Certified only if every shard was and the evidence suffices.

Certificates of several servers (certify --server X on separate machines, their shards, or the
matrix.json of certify --servers) merge into one matrix.json instead: a verdict per server, certified
only if every server is. They must share pattern, implementation, seed, faults, settings and
durability; a server (as its node named itself) given twice is refused.
Exit 0 certified, 1 not certified, 2 usage error (a missing, repeated or mismatched shard).

options:
  --out FILE         where the merged certificate.json goes (required; no default)
  --junit FILE       also write a JUnit XML of the merged verdict, one case per invariant and finding
                     (default: none)
  --json             print the merged certificate on stdout instead of the summary (default: off)
  -h, --help         this text
${helpFooter('merge')}`;

export const FLAGS = {
  out: { type: 'string' },
  junit: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const { values, positionals } = parse('merge', argv, FLAGS, true);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (positionals.length === 0) throw new UsageError('merge: expected the certificate.json of each shard');
  if (!values.out) throw new UsageError('merge: --out FILE is required');
  for (const [flag, file] of [
    ['out', values.out],
    ['junit', values.junit],
  ] as const)
    if (file !== undefined) checkOutFile('merge', flag, file);
  let merged: Certificate;
  try {
    const files = positionals.map(readCertificateFile);
    if (isMatrixMerge(files)) return writeMatrix(mergeMatrix(files), values, io);
    merged = mergeCertificates(files as ShardCertificate[]);
  } catch (error) {
    if (error instanceof CertificateError || error instanceof MergeError)
      throw new UsageError(`merge: ${error.message}`);
    throw error;
  }
  writeOutFile(values.out, JSON.stringify(merged, null, 2) + '\n');
  if (values.junit) writeOutFile(values.junit, mergedJunit(merged));
  io.stdout.write(values.json ? JSON.stringify(merged, null, 2) + '\n' : mergedSummary(merged, values.out));
  return merged.certified ? EXIT.ok : EXIT.failed;
}

/** The matrix of several servers' certificates: matrix.json at --out, its JUnit (a case per server), its summary. */
function writeMatrix(m: MatrixCertificate, values: { out?: string; junit?: string; json?: boolean }, io: Io): number {
  writeOutFile(values.out!, JSON.stringify(m, null, 2) + '\n');
  if (values.junit)
    writeOutFile(
      values.junit,
      junitXml(`chaoslua certify ${m.pattern} (${m.servers.length} servers)`, matrixJunitCases(m), m.seconds, {
        seed: String(m.seed),
      }),
    );
  io.stdout.write(values.json ? JSON.stringify(m, null, 2) + '\n' : matrixSummary(m, values.out!, 'merge'));
  return matrixExitCode(m) === 0 ? EXIT.ok : EXIT.failed;
}

function mergedJunit(c: Certificate): string {
  const cases = [
    ...c.invariants.map((s) => ({
      name: s.invariant,
      passed: s.passed,
      message: s.violations[0]?.message.split('\n')[0],
      detail: s.violations.map((v) => `${v.message}\n${v.counterexample ?? ''}`).join('\n'),
    })),
    ...c.findings.map((f) => ({ name: 'finding', passed: false, message: f })),
  ];
  const properties = Object.fromEntries([
    ...Object.entries(c.duplicateEffects ?? {}).map(([op, n]) => [`duplicate-effects.${op}`, String(n)]),
    ...(c.duplicateFindings ?? []).map((f, i) => [`duplicate-finding.${i + 1}`, f]),
  ]);
  return junitXml(`chaoslua certify ${c.pattern} (${c.merged?.count} shards)`, cases, c.seconds, properties);
}

function mergedSummary(c: Certificate, out: string): string {
  const faults =
    Object.entries(c.faults)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none fired';
  const lines = [
    `chaoslua merge: ${c.certified ? 'CERTIFIED' : 'NOT CERTIFIED'} — ${c.pattern}, ${c.implementation.spec}, ${c.merged?.count} shards of seed ${c.seed}`,
    `  runs ${c.runs} · operations ${c.operations} · slowest shard ${c.seconds.toFixed(1)} s · replication losses (not violations) ${c.replicationLosses}`,
    `  faults: ${faults}`,
    `  duplicate effects (operations only a second execution explains): ${
      Object.entries(c.duplicateEffects ?? {})
        .map(([op, n]) => `${op} ${n}`)
        .join(', ') || 'none'
    }`,
    ...(c.duplicateFindings ?? []).map((f) => `  note ${f}`),
    ...(c.merged?.shards ?? []).map(
      (s) => `  shard ${s.index}: ${s.certified ? 'ok  ' : 'FAIL'} ${s.runs} runs (${s.file})`,
    ),
    ...c.invariants.map(
      (s) =>
        `  ${s.passed ? 'ok  ' : 'FAIL'} ${s.invariant}${
          s.passed
            ? ''
            : `: ${s.violations.length} violation(s); ${s.violations
                .map((v) => v.counterexample)
                .filter(Boolean)
                .join(', ')}`
        }`,
    ),
    ...c.findings.map((f) => `  FAIL ${f}`),
    `  certificate: ${out}`,
  ];
  return lines.join('\n') + '\n';
}
