/**
 * Reading a certificate file for `merge`: a certificate.json (one job on one server) or a matrix.json
 * (`certify --servers`), told apart by matrix.json's `kind`; the fields a merge reads are checked
 * before any is trusted, the first wrong one named.
 */
import type { Certificate } from '../report/certificate.ts';
import type { MatrixCertificate } from '../report/matrix-certificate.ts';
import { CertificateError, readCertificateJson, validateCertificate, validatedAs } from './certificate-file.ts';

export type CertificateFile =
  | { readonly file: string; readonly certificate: Certificate }
  | { readonly file: string; readonly matrix: MatrixCertificate };

const VERDICTS = ['certified', 'not certified', 'incomplete'];

/** A matrix.json's fields, checked; throws a CertificateError naming the first wrong one. */
export function validateMatrix(value: Record<string, unknown>): MatrixCertificate {
  const wrong = (at: string, expected: string, got: unknown) =>
    new CertificateError(`${at}: expected ${expected}, got ${JSON.stringify(got) ?? 'nothing'}`);
  if (value.version !== 1) throw wrong('version', '1', value.version);
  if (typeof value.certified !== 'boolean') throw wrong('certified', 'a boolean', value.certified);
  if (typeof value.pattern !== 'string') throw wrong('pattern', 'a string', value.pattern);
  const impl = value.implementation as Record<string, unknown> | undefined;
  if (typeof impl?.sha256 !== 'string' || typeof impl.spec !== 'string')
    throw wrong('implementation', 'a spec and a sha256', impl);
  if (!Number.isSafeInteger(value.seed) || (value.seed as number) < 0)
    throw wrong('seed', 'an integer >= 0', value.seed);
  if (!Array.isArray(value.servers) || value.servers.length === 0)
    throw wrong('servers', 'a non-empty array', value.servers);
  value.servers.forEach((s: Record<string, unknown>, i: number) => {
    const at = `servers[${i}]`;
    if (typeof s !== 'object' || s === null) throw wrong(at, 'an object', s);
    for (const k of ['asked', 'version', 'certificate'])
      if (typeof s[k] !== 'string') throw wrong(`${at}.${k}`, 'a string', s[k]);
    if (!VERDICTS.includes(s.verdict as string)) throw wrong(`${at}.verdict`, VERDICTS.join(' | '), s.verdict);
    for (const k of ['runs', 'operations'])
      if (!Number.isSafeInteger(s[k]) || (s[k] as number) < 0) throw wrong(`${at}.${k}`, 'an integer >= 0', s[k]);
    if (typeof s.seconds !== 'number') throw wrong(`${at}.seconds`, 'a number', s.seconds);
    for (const k of ['failed', 'findings'])
      if (!Array.isArray(s[k]) || (s[k] as unknown[]).some((x) => typeof x !== 'string'))
        throw wrong(`${at}.${k}`, 'an array of strings', s[k]);
  });
  return value as unknown as MatrixCertificate;
}

/** A certificate.json or matrix.json, read and checked; the error names the file. */
export function readCertificateFile(file: string): CertificateFile {
  const parsed = readCertificateJson(file);
  const isMatrix =
    typeof parsed === 'object' && parsed !== null && (parsed as Record<string, unknown>).kind === 'matrix';
  return validatedAs(file, isMatrix ? 'matrix' : 'certificate', () =>
    isMatrix
      ? { file, matrix: validateMatrix(parsed as Record<string, unknown>) }
      : { file, certificate: validateCertificate(parsed) },
  );
}
