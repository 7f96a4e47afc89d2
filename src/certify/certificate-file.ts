/**
 * Reading a certificate.json back (`certify --baseline`, `merge`): the fields those commands use are
 * checked before any is trusted, so a hand-edited or foreign file fails with the field named
 * ("shard.count: expected an integer >= 1, got "8"") rather than deep inside a comparison.
 */
import { InputLimitError, readBoundedText } from '../files/bounded-read.ts';
import type { Certificate } from '../report/certificate.ts';

export class CertificateError extends Error {
  override readonly name = 'CertificateError';
}

const show = (v: unknown) =>
  v === undefined
    ? 'nothing'
    : v === null
      ? 'null'
      : Array.isArray(v)
        ? 'an array'
        : typeof v === 'object'
          ? 'an object'
          : JSON.stringify(v);

function field(
  value: Record<string, unknown>,
  at: string,
  kind: 'string' | 'boolean' | 'int' | 'object' | 'array',
): unknown {
  const v = at
    .split('.')
    .reduce<unknown>(
      (o, k) => (typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[k] : undefined),
      value,
    );
  const ok =
    kind === 'int'
      ? Number.isSafeInteger(v) && (v as number) >= 0
      : kind === 'array'
        ? Array.isArray(v)
        : kind === 'object'
          ? typeof v === 'object' && v !== null && !Array.isArray(v)
          : typeof v === kind;
  if (!ok)
    throw new CertificateError(
      `${at}: expected ${kind === 'int' ? 'an integer >= 0' : kind === 'array' || kind === 'object' ? `an ${kind}` : `a ${kind}`}, got ${show(v)}`,
    );
  return v;
}

/** Checks the fields a comparison or a merge reads; throws a CertificateError naming the first wrong one. */
export function validateCertificate(value: unknown): Certificate {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CertificateError(`not a certificate (it holds ${show(value)})`);
  const v = value as Record<string, unknown>;
  if (v.version !== 1) throw new CertificateError(`version: expected 1, got ${show(v.version)}`);
  field(v, 'certified', 'boolean');
  field(v, 'pattern', 'string');
  field(v, 'implementation.sha256', 'string');
  field(v, 'seed', 'int');
  field(v, 'runs', 'int');
  field(v, 'operations', 'int');
  field(v, 'faults', 'object');
  field(v, 'replicationLosses', 'int');
  (field(v, 'findings', 'array') as unknown[]).forEach((f, i) => {
    if (typeof f !== 'string') throw new CertificateError(`findings[${i}]: expected a string, got ${show(f)}`);
  });
  (field(v, 'invariants', 'array') as unknown[]).forEach((s, i) => {
    const entry = { [`invariants[${i}]`]: s } as Record<string, unknown>;
    field(entry, `invariants[${i}]`, 'object');
    const inv = s as Record<string, unknown>;
    if (typeof inv.invariant !== 'string')
      throw new CertificateError(`invariants[${i}].invariant: expected a string, got ${show(inv.invariant)}`);
    if (typeof inv.passed !== 'boolean')
      throw new CertificateError(`invariants[${i}].passed: expected a boolean, got ${show(inv.passed)}`);
    if (!Array.isArray(inv.violations))
      throw new CertificateError(`invariants[${i}].violations: expected an array, got ${show(inv.violations)}`);
  });
  if (v.shard !== undefined) {
    field(v, 'shard.index', 'int');
    const count = field(v, 'shard.count', 'int') as number;
    if (count < 1 || (v.shard as { index: number }).index >= count)
      throw new CertificateError(`shard: expected index < count >= 1, got ${JSON.stringify(v.shard)}`);
  }
  return value as Certificate;
}

/** A certificate-sized JSON file, parsed; a CertificateError names the file and what is wrong with it. */
export function readCertificateJson(file: string): unknown {
  try {
    return JSON.parse(readBoundedText(file, 'certificate'));
  } catch (error) {
    if (error instanceof InputLimitError) throw new CertificateError(error.message);
    throw new CertificateError(`${file}: not a readable JSON file (${(error as Error).message.split('\n')[0]})`);
  }
}

/** `validate(parsed)`, its CertificateError prefixed with the file and what it was read as. */
export function validatedAs<T>(file: string, what: string, validate: () => T): T {
  try {
    return validate();
  } catch (error) {
    if (error instanceof CertificateError) throw new CertificateError(`${file}: not a valid ${what}: ${error.message}`);
    throw error;
  }
}

/** A certificate file, read and checked; the error names the file. */
export function readCertificate(file: string): Certificate {
  const parsed = readCertificateJson(file);
  return validatedAs(file, 'certificate', () => validateCertificate(parsed));
}
