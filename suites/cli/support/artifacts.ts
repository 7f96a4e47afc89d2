import { expect } from 'vitest';
import { PATTERN_NAMES, PATTERNS, type PatternName } from '../../../src/patterns/index.ts';

/**
 * certificate.json against docs/certificate.md, field by field: every documented field present
 * with its type, nothing undocumented, and the invariants those of the pattern.
 */
export function expectCertificateSchema(c: Record<string, any>): void {
  const documented = [
    'version',
    'certified',
    'pattern',
    'implementation',
    'redis',
    'seed',
    'runs',
    'discarded',
    'operations',
    'faults',
    'skippedFaults',
    'evidence',
    'invariants',
    'findings',
    'replicationLosses',
    'clocks',
    'duplicateEffects',
    'duplicateFindings',
    'issuedAt',
    'seconds',
  ];
  // Optional, documented too: shard (certify --shard), merged (chaoslua merge), corpus (when one was
  // replayed), incomplete (the environment ended the job), durability (--durability), capabilities
  // and keyMapping (when the implementation declared them), firstFailure (when a run failed),
  // settings (a pattern that declares some: every one, as --set filled them); clockLosses (a moved
  // server clock explained some run) and clientClocks (client-clock was in the fault set).
  const optional = [
    'shard',
    'merged',
    'corpus',
    'incomplete',
    'durability',
    'capabilities',
    'keyMapping',
    'firstFailure',
    'settings',
    'faultsAsked',
    'clockLosses',
    'clientClocks',
  ];
  expect(
    Object.keys(c)
      .filter((k) => !optional.includes(k))
      .sort(),
  ).toEqual(documented.sort());
  expect(c.version).toBe(1);
  expect(typeof c.certified).toBe('boolean');
  expect(PATTERN_NAMES).toContain(c.pattern);
  if (c.incomplete !== undefined) expect(c.incomplete === true && c.certified === false).toBe(true);
  if (c.firstFailure !== undefined)
    expect(c.firstFailure).toEqual({ run: expect.any(Number), seconds: expect.any(Number) });
  if (c.settings !== undefined) for (const n of Object.values(c.settings)) expect(Number.isSafeInteger(n)).toBe(true);
  expect(c.implementation).toEqual({
    spec: expect.stringMatching(/^(lua|module|cmd):/),
    sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
  });
  // clusters: only when the runs were dealt to more than one (--clusters).
  // server, allocator and features: probed on a running node (none when nothing ran); asked: --server as given.
  const probed =
    c.redis.server === undefined
      ? {}
      : {
          server: expect.stringMatching(/^(redis|valkey)$/),
          allocator: expect.any(String),
          features: expect.any(Object),
        };
  expect(c.redis).toEqual({
    version: expect.any(String),
    topology: expect.any(String),
    cluster: expect.any(String),
    ...probed,
    ...(c.redis.asked === undefined ? {} : { asked: expect.any(String) }),
    ...(c.redis.clusters === undefined ? {} : { clusters: expect.any(Number) }),
  });
  expect(c.clocks.length).toBeGreaterThan(0);
  for (const line of c.clocks) expect(typeof line).toBe('string');
  if (c.redis.clusters !== undefined) expect(c.redis.clusters).toBeGreaterThan(1);
  for (const n of [c.seed, c.runs, c.operations, c.replicationLosses])
    expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
  expect(c.discarded).toEqual({ runs: expect.any(Number), causes: expect.any(Array) });
  expect(c.discarded.causes).toHaveLength(c.discarded.runs);
  for (const n of Object.values(c.faults)) expect(Number.isSafeInteger(n)).toBe(true);
  expect(Array.isArray(c.skippedFaults)).toBe(true);
  // Operations only a second execution explains, counted per operation, and the findings the pattern declares for them.
  for (const n of Object.values(c.duplicateEffects)) expect(Number.isSafeInteger(n) && (n as number) >= 0).toBe(true);
  expect(c.duplicateFindings.every((f: unknown) => typeof f === 'string')).toBe(true);
  expect(Object.keys(c.evidence).sort()).toEqual(['minOkPerOperation', 'missing', 'operations', 'transitions']);
  for (const o of Object.values(c.evidence.operations) as any[]) {
    expect(Object.keys(o).sort()).toEqual(['fail', 'info', 'issued', 'ok', 'shares']);
    expect(o.ok + o.fail + o.info).toBe(o.issued);
    // Each answer's share of the issued operations, to 3 decimals.
    expect(Object.keys(o.shares).sort()).toEqual(['fail', 'info', 'ok']);
    for (const k of ['ok', 'fail', 'info']) expect(o.shares[k]).toBeCloseTo(o.issued === 0 ? 0 : o[k] / o.issued, 3);
  }
  expect(c.invariants.map((i: any) => i.invariant)).toEqual(
    c.runs === 0 && c.invariants.length === 0 ? [] : PATTERNS[c.pattern as PatternName].invariants,
  );
  for (const i of c.invariants) {
    expect(typeof i.passed).toBe('boolean');
    if (i.barelyWitnessed !== undefined) expect(i.barelyWitnessed).toMatch(/^barely witnessed: /);
    // Not applicable (nothing declared could witness it) is never passed, and never a violation.
    if (i.notApplicable !== undefined) expect(i.passed === false && i.violations.length === 0).toBe(true);
    else expect(i.passed).toBe(i.violations.length === 0);
  }
  expect(c.findings.every((f: unknown) => typeof f === 'string')).toBe(true);
  expect(Number.isNaN(Date.parse(c.issuedAt))).toBe(false);
  expect(typeof c.seconds).toBe('number');
  // certified means exactly: nothing violated, nothing found, nothing missing (a shard's evidence is
  // judged by merge, over all the shards: what one shard alone lacked is listed, not held against it).
  expect(c.certified).toBe(
    c.invariants.every((i: any) => i.passed || i.notApplicable !== undefined) &&
      c.findings.length === 0 &&
      (c.shard !== undefined || c.evidence.missing.length === 0),
  );
}

export interface JunitCaseRead {
  readonly name: string;
  readonly failure?: string;
}

/** junit.xml, read with the structure CI tools expect (testsuites > testsuite > testcase [> failure]), counts checked. */
export function readJunit(xml: string): { suite: string; cases: JunitCaseRead[] } {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
  const suites = [...xml.matchAll(/<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)" time="[\d.]+">/g)];
  expect(suites).toHaveLength(1);
  const cases: JunitCaseRead[] = [];
  for (const m of xml.matchAll(
    /<testcase classname="[^"]*" name="([^"]*)" time="[\d.]+"(\/>|>\s*<failure message="([^"]*)">[\s\S]*?<\/failure>\s*<\/testcase>)/g,
  )) {
    cases.push({ name: m[1], ...(m[3] !== undefined ? { failure: m[3] } : {}) });
  }
  expect(cases).toHaveLength(Number(suites[0][2]));
  expect(cases.filter((c) => c.failure !== undefined)).toHaveLength(Number(suites[0][3]));
  const top = /<testsuites tests="(\d+)" failures="(\d+)">/.exec(xml)!;
  expect([Number(top[1]), Number(top[2])]).toEqual([Number(suites[0][2]), Number(suites[0][3])]);
  return { suite: suites[0][1], cases };
}
