import path from 'node:path';
import { baselineLines, BaselineError, compareWithBaseline } from '../certify/baseline.ts';
import { CertificateError, readCertificate } from '../certify/certificate-file.ts';
import type { Certificate } from '../report/certificate.ts';
import { writeJson } from '../report/folder.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import type { Io } from './io.ts';

export interface Baseline {
  readonly file: string;
  readonly certificate: Certificate;
}

/** The --baseline certificate, read and checked before any cluster starts. */
export function readBaseline(command: string, file: string, pattern: string): Baseline {
  let certificate: Certificate;
  try {
    certificate = readCertificate(file);
  } catch (error) {
    if (error instanceof CertificateError) throw new UsageError(`${command}: --baseline ${error.message}`);
    throw error;
  }
  if (certificate.pattern !== pattern)
    throw new UsageError(
      `${command}: --baseline ${file} certifies ${certificate.pattern}, this run --pattern ${pattern}`,
    );
  return { file: path.resolve(file), certificate };
}

/** Compares, writes baseline.json beside the certificate, says what changed; exit 1 only on a regression. */
export function reportBaseline(baseline: Baseline, current: Certificate, dir: string, json: boolean, io: Io): number {
  let comparison;
  try {
    comparison = compareWithBaseline(baseline.certificate, current);
  } catch (error) {
    if (error instanceof BaselineError) throw new UsageError(`certify: --baseline: ${error.message}`);
    throw error;
  }
  writeJson(dir, 'baseline.json', {
    baseline: baseline.file,
    regressed: comparison.regressions.length > 0,
    ...comparison,
  });
  if (!json) io.stdout.write(baselineLines(baseline.file, comparison).join('\n') + '\n');
  return comparison.regressions.length ? EXIT.failed : EXIT.ok;
}
