/**
 * The server matrix (`certify --servers a,b,c`, `merge` of per-server certificates): each server's
 * certificate read into one verdict, the verdicts into matrix.json, its JUnit cases and its summary
 * lines. Pure: certificates in, matrix out (the jobs and the files are the CLI's).
 */
import type { Certificate } from '../report/certificate.ts';
import type { JunitCase } from '../report/junit.ts';
import type { MatrixCertificate, MatrixServer } from '../report/matrix-certificate.ts';

/** What every server of a matrix shares: a certificate or a matrix has them all. */
export type MatrixShared = Pick<
  Certificate,
  'pattern' | 'implementation' | 'seed' | 'faultsAsked' | 'settings' | 'durability'
>;

/** One server's verdict, from its certificate; `asked` is what named the server, `file` where its certificate is. */
export function matrixServer(asked: string, c: Certificate, file: string): MatrixServer {
  return {
    asked,
    ...(c.redis.server ? { server: c.redis.server } : {}),
    version: c.redis.version,
    ...(c.redis.allocator ? { allocator: c.redis.allocator } : {}),
    ...(c.redis.features ? { features: c.redis.features } : {}),
    verdict: c.certified ? 'certified' : c.incomplete ? 'incomplete' : 'not certified',
    runs: c.runs,
    operations: c.operations,
    seconds: c.seconds,
    faults: c.faults,
    failed: c.invariants
      .filter((s) => !s.passed && !s.notApplicable)
      .map((s) => `${s.invariant} (${s.violations.length})`),
    findings: [...c.findings],
    certificate: file,
  };
}

/**
 * The matrix of servers that ran one implementation with one seed: certified only when every
 * server's job was. `first` gives what they share (pattern, implementation, seed, options).
 */
export function matrixCertificate(
  first: MatrixShared,
  servers: readonly MatrixServer[],
  seconds: number,
  issuedAt = new Date().toISOString(),
): MatrixCertificate {
  return {
    version: 1,
    kind: 'matrix',
    certified: servers.length > 0 && servers.every((s) => s.verdict === 'certified'),
    pattern: first.pattern,
    implementation: first.implementation,
    seed: first.seed,
    ...(first.faultsAsked ? { faultsAsked: first.faultsAsked } : {}),
    ...(first.settings ? { settings: first.settings } : {}),
    ...(first.durability ? { durability: first.durability } : {}),
    servers,
    issuedAt,
    seconds: Math.round(seconds * 1000) / 1000,
  };
}

/** 0 when every server certified; 1 when any was refused (a verdict, whatever else happened); else 3 (a job the environment ended). */
export function matrixExitCode(m: MatrixCertificate): 0 | 1 | 3 {
  if (m.certified) return 0;
  return m.servers.some((s) => s.verdict === 'not certified') ? 1 : 3;
}

/** The server as the node named itself: `Valkey 8.1.8 (libc)`, or the version alone when no node answered. */
export function serverName(s: MatrixServer): string {
  if (!s.server) return s.version;
  return `${s.server.charAt(0).toUpperCase()}${s.server.slice(1)} ${s.version}${s.allocator ? ` (${s.allocator})` : ''}`;
}

/** Why a server's verdict is not certified, in one line. */
export function whyNot(s: MatrixServer): string {
  const reasons = [
    ...s.failed.map((f) => `broke ${f}`),
    ...s.findings.slice(0, 2),
    ...(s.findings.length > 2 ? [`${s.findings.length - 2} more finding(s)`] : []),
  ];
  return reasons.join('; ') || 'no reason recorded';
}

/** The summary: the matrix verdict, then a line per server, then where matrix.json is. */
export function matrixSummary(m: MatrixCertificate, file: string, command = 'certify --servers'): string {
  const passed = m.servers.filter((s) => s.verdict === 'certified').length;
  const askedWidth = Math.max(...m.servers.map((s) => s.asked.length), 6) + 2;
  const nameWidth = Math.max(...m.servers.map((s) => serverName(s).length), 6) + 2;
  const lines = [
    `chaoslua ${command}: ${m.certified ? 'CERTIFIED' : 'NOT CERTIFIED'} — ${m.pattern}, ${m.implementation.spec}, seed ${m.seed}: ${passed} of ${m.servers.length} server(s) certified`,
    ...m.servers.map((s) => {
      const verdict =
        s.verdict === 'certified' ? 'certified    ' : s.verdict === 'incomplete' ? 'INCOMPLETE   ' : 'NOT CERTIFIED';
      const tail =
        s.verdict === 'certified'
          ? `${s.runs} runs, ${s.operations} operations, ${s.seconds.toFixed(1)} s`
          : `${s.runs} runs: ${whyNot(s)}`;
      return `  ${s.asked.padEnd(askedWidth)}${serverName(s).padEnd(nameWidth)}${verdict}  ${tail}`;
    }),
    `  matrix: ${file}`,
  ];
  return lines.join('\n') + '\n';
}

/** JUnit: a case per server, failed with its reason when not certified. */
export function matrixJunitCases(m: MatrixCertificate): JunitCase[] {
  return m.servers.map((s) => ({
    name: `${s.asked} (${serverName(s)})`,
    passed: s.verdict === 'certified',
    ...(s.verdict === 'certified'
      ? {}
      : {
          message: `${s.verdict}: ${whyNot(s)}`,
          detail: [...s.failed.map((f) => `broke ${f}`), ...s.findings, `certificate: ${s.certificate}`].join('\n'),
        }),
  }));
}
