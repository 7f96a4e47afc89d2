import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError } from '../cluster/errors.ts';
import { matrixCertificate, matrixExitCode, matrixJunitCases, matrixServer, matrixSummary } from '../certify/matrix.ts';
import type { Io, JobOptions, JobResult } from '../certify/types.ts';
import type { Certificate } from '../report/certificate.ts';
import { createRunFolder, writeJson } from '../report/folder.ts';
import { junitXml } from '../report/junit.ts';
import type { MatrixServer } from '../report/matrix-certificate.ts';
import { MATRIX_PAGE, renderMatrixPage } from '../report/matrix-page.ts';
import type { MatrixServerOption } from './servers-flag.ts';
import { printable } from './printable.ts';

/** One server's job as `certify` runs it: the job, its certificate.json written in its run folder, its summary printed on `io`. */
export type CertifyOne = (
  options: JobOptions,
  io: Io,
) => Promise<{ readonly result: JobResult; readonly certificate: Certificate }>;

/**
 * `certify --servers`: the job once per server, one after another (each on its --clusters lanes), all
 * with the options' one seed, each server's run folder inside the matrix folder, then matrix.json and
 * junit.xml beside them. A server whose cluster cannot start is recorded incomplete and the matrix goes
 * on to the next (exit 3 unless another server was refused). Returns the exit code.
 */
export async function certifyMatrix(
  options: JobOptions,
  servers: readonly MatrixServerOption[],
  certifyOne: CertifyOne,
  io: Io,
): Promise<number> {
  const started = performance.now();
  const dir = createRunFolder(options.reportRoot, 'certify-matrix', options.seed);
  // Each job's summary goes to stderr, so stdout holds the matrix's (or its JSON) alone.
  const jobIo: Io = { stdout: options.json ? { write: () => true } : io.stderr, stderr: io.stderr };
  const entries: MatrixServer[] = [];
  let first: Certificate | undefined;
  for (const [i, s] of servers.entries()) {
    if (!options.json)
      io.stderr.write(`chaoslua: server ${i + 1} of ${servers.length}: ${s.asked} (seed ${options.seed})\n`);
    const reportRoot = path.join(dir, s.folder);
    fs.mkdirSync(reportRoot, { recursive: true });
    const jobStarted = performance.now();
    try {
      const { result, certificate } = await certifyOne({ ...options, server: s.server, reportRoot }, jobIo);
      first ??= certificate;
      entries.push(matrixServer(s.asked, certificate, path.relative(dir, path.join(result.dir, 'certificate.json'))));
    } catch (error) {
      if (!(error instanceof EnvironmentError)) throw error;
      const message = printable(error.message.split('\n')[0]);
      if (!options.json) io.stderr.write(`chaoslua: ${s.asked}: environment: ${message}\n`);
      entries.push(notStarted(s.asked, `environment: ${message}`, (performance.now() - jobStarted) / 1000));
    }
  }
  const base = first ?? placeholder(options);
  const matrix = matrixCertificate(base, entries, (performance.now() - started) / 1000);
  const file = writeJson(dir, 'matrix.json', matrix);
  fs.writeFileSync(path.join(dir, MATRIX_PAGE), renderMatrixPage(matrix));
  fs.writeFileSync(
    path.join(dir, 'junit.xml'),
    junitXml(
      `chaoslua certify ${matrix.pattern} (${entries.length} servers)`,
      matrixJunitCases(matrix),
      matrix.seconds,
      { seed: String(matrix.seed) },
    ),
  );
  io.stdout.write(options.json ? JSON.stringify(matrix, null, 2) + '\n' : matrixSummary(matrix, file));
  return matrixExitCode(matrix);
}

/** A server whose job never reached a node: no verdict, and why. */
function notStarted(asked: string, finding: string, seconds: number): MatrixServer {
  return {
    asked,
    version: 'not started',
    verdict: 'incomplete',
    runs: 0,
    operations: 0,
    seconds: Math.round(seconds * 1000) / 1000,
    failed: [],
    findings: [finding],
    certificate: '',
  };
}

/** What every server shares, when no job wrote a certificate to read it from. */
function placeholder(options: JobOptions): Certificate {
  return {
    version: 1,
    certified: false,
    pattern: options.pattern.name,
    implementation: { spec: options.implSpec ?? '', sha256: '' },
    redis: { version: 'not started', topology: '', cluster: options.cluster },
    seed: options.seed,
    runs: 0,
    operations: 0,
    faults: {},
    invariants: [],
    findings: [],
    replicationLosses: 0,
    issuedAt: new Date().toISOString(),
    seconds: 0,
  };
}
