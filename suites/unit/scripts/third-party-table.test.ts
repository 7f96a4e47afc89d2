import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  END,
  START,
  TableError,
  pinnedLibraries,
  renderTable,
  tableRow,
  withTable,
  type AdapterFolder,
} from '../../../scripts/third-party-table.ts';

// The results table of docs/third-party.md is generated from the certificates: a given
// certificate renders into exactly this row, and a certificate missing a field the table needs is
// refused with the file and the field named, never rendered with a hole.

const folder: AdapterFolder = { name: 'redlock', dependencies: { redlock: '5.0.0-beta.2' }, hasFindings: true };

const rejected = {
  version: 1,
  certified: false,
  pattern: 'lock',
  implementation: { spec: 'module:/home/ci/chaoslua/examples/third-party/redlock/store.mjs', sha256: 'ab' },
  seed: 1301,
  runs: 7,
  seconds: 108.088,
  capabilities: { acquire: 'boolean+handle', release: 'boolean', extend: 'boolean' },
  invariants: [
    { invariant: 'one-holder', passed: true, violations: [] },
    { invariant: 'no-stale-release', passed: false, violations: [{ invariant: 'no-stale-release', message: '...' }] },
    { invariant: 'model-conformance', passed: true, violations: [] },
  ],
  findings: [],
  replicationLosses: 0,
  duplicateEffects: { acquire: 0, release: 0, extend: 0 },
  firstFailure: { run: 7, seconds: 26.712 },
};

describe('the third-party results table', () => {
  it('renders a rejected certificate into its row', () => {
    expect(tableRow(folder, rejected, 'redlock/certificate.json')).toEqual([
      '[redlock](../examples/third-party/redlock/) `store.mjs` ([findings](../examples/third-party/redlock/findings/))',
      'redlock 5.0.0-beta.2',
      'lock',
      'lease=250, lease2=500',
      'acquire boolean+handle, release boolean, extend boolean',
      'rejected',
      'no-stale-release',
      '0',
      'run 7, 26.7 s',
      '1301',
      '`chaoslua certify --impl module:examples/third-party/redlock/store.mjs --pattern lock --seed 1301 --no-corpus`',
    ]);
  });

  it('says when a certificate was earned on independent masters, in the adapter cell and the command', () => {
    const onMasters = (topology: string) =>
      tableRow(folder, { ...rejected, redis: { topology } }, 'redlock/certificate.masters.json');
    const five = onMasters('5 independent masters n0,n1,n2,n3,n4 (no cluster, no replicas)');
    expect(five[0]).toBe(
      '[redlock](../examples/third-party/redlock/) `store.mjs` on 5 independent masters ([findings](../examples/third-party/redlock/findings/))',
    );
    expect(five.at(-1)).toBe(
      '`chaoslua certify --impl module:examples/third-party/redlock/store.mjs --pattern lock --topology masters --seed 1301 --no-corpus`',
    );
    expect(onMasters('3 independent masters n0,n1,n2 (no cluster, no replicas)').at(-1)).toMatch(
      /--pattern lock --topology masters:3 --seed/,
    );
    expect(onMasters('n0 master 0-5460 <- n3')[0]).not.toMatch(/independent/);
  });

  it('renders a certified one with its not-applicable invariants and replication losses', () => {
    const certified = {
      ...rejected,
      certified: true,
      runs: 40,
      firstFailure: undefined,
      capabilities: { acquire: 'boolean', release: 'void' },
      invariants: [
        { invariant: 'one-holder', passed: true, violations: [] },
        { invariant: 'no-stale-release', passed: false, notApplicable: 'not-applicable: ...', violations: [] },
      ],
      replicationLosses: 2,
      duplicateEffects: { acquire: 1, release: 0 },
    };
    const row = tableRow({ ...folder, hasFindings: false }, certified, 'x/certificate.json');
    expect(row[0]).toBe('[redlock](../examples/third-party/redlock/) `store.mjs`');
    expect(row[4]).toBe('acquire boolean, release void; n/a: no-stale-release');
    expect(row[5]).toBe('certified');
    expect(row[6]).toBe('2 replication losses (not violations)');
    expect(row[7]).toBe('acquire 1');
    expect(row[8]).toBe('none in 40 runs (108.1 s)');
  });

  it('shows the semantic variants a certificate was judged by beside the levels', () => {
    const semaphore = {
      ...rejected,
      pattern: 'semaphore',
      capabilities: { acquire: 'boolean', release: 'void', refresh: 'boolean' },
      variants: { reacquire: 'counts' },
    };
    expect(tableRow(folder, semaphore, 's/certificate.json')[4]).toBe(
      'acquire boolean, release void, refresh boolean; semantics: reacquire counts',
    );
    expect(tableRow(folder, { ...semaphore, variants: undefined }, 's/certificate.json')[4]).toBe(
      'acquire boolean, release void, refresh boolean',
    );
  });

  it('renders one refused for a finding, with no failing run', () => {
    const finding = {
      ...rejected,
      runs: 40,
      seconds: 158.3,
      firstFailure: undefined,
      invariants: rejected.invariants.map((s) => ({ ...s, passed: true, violations: [] })),
      findings: ['noscript-unhandled: client c4 got NOSCRIPT twice'],
    };
    const row = tableRow(folder, finding, 'c.json');
    expect(row.slice(5, 9)).toEqual([
      'not certified (noscript-unhandled)',
      '—',
      '0',
      'no failing run; finding over 40 runs (158.3 s)',
    ]);
  });

  it("shows a limiter's settings, and asks for the ones that differ from their default", () => {
    const limiter = {
      ...rejected,
      certified: true,
      pattern: 'ratelimit',
      runs: 40,
      seconds: 141.4,
      firstFailure: undefined,
      implementation: { spec: 'module:examples/third-party/rate-limiter-flexible/store.mjs' },
      capabilities: { hit: 'boolean' },
      invariants: [],
      duplicateEffects: { hit: 2 },
    };
    const rl: AdapterFolder = {
      name: 'rate-limiter-flexible',
      dependencies: { 'rate-limiter-flexible': '11.4.0' },
      hasFindings: false,
    };
    // Written before settings existed: the defaults, and no --set.
    const before = tableRow(rl, limiter, 'c.json');
    expect(before[3]).toBe('limit=3, window=1');
    expect(before[10]).toBe(
      '`chaoslua certify --impl module:examples/third-party/rate-limiter-flexible/store.mjs --pattern ratelimit --seed 1301 --no-corpus`',
    );
    const window3 = tableRow(rl, { ...limiter, settings: { limit: 3, window: 3 } }, 'c.json');
    expect(window3[3]).toBe('limit=3, window=3');
    expect(window3[10]).toBe(
      '`chaoslua certify --impl module:examples/third-party/rate-limiter-flexible/store.mjs --pattern ratelimit --set window=3 --seed 1301 --no-corpus`',
    );
    // A job that took most of the default 5-minute limit is reproduced with twice its time.
    expect(tableRow(rl, { ...limiter, settings: { limit: 3, window: 3 }, seconds: 262.3 }, 'c.json')[10]).toMatch(
      /--set window=3 --seed 1301 --time-limit 9m --no-corpus`$/,
    );
    expect(() => tableRow(rl, { ...limiter, settings: { window: 0 } }, 'rl/c.json')).toThrow(
      new TableError('rl/c.json: settings: window must be an integer in [1, 10], got 0'),
    );
    expect(() => tableRow(rl, { ...limiter, settings: { window: '3' } }, 'rl/c.json')).toThrow(
      /settings is not an object of numbers/,
    );
  });

  it('refuses a certificate missing a field, naming the file and the field', () => {
    const { seed: _, ...noSeed } = rejected;
    expect(() => tableRow(folder, noSeed, 'redlock/certificate.json')).toThrow(
      new TableError('redlock/certificate.json: seed is missing or not a number (got nothing)'),
    );
    const { firstFailure: __, ...noFirst } = rejected;
    expect(() => tableRow(folder, noFirst, 'redlock/certificate.json')).toThrow(/firstFailure is missing/);
    expect(() => tableRow(folder, { ...rejected, implementation: { spec: 'lua:/x' } }, 'r/c.json')).toThrow(
      /neither a module nor a command under examples\/third-party/,
    );
  });

  it("renders a program run from the repository's root (cmd:) and reads pins from requirements.txt, go.mod and pom.xml", () => {
    const cmd = {
      ...rejected,
      implementation: { spec: 'cmd:examples/third-party/p/.venv/bin/python examples/third-party/p/adapter.py' },
    };
    const row = tableRow(
      { name: 'p', dependencies: { pottery: '3.0.1' }, hasFindings: false },
      cmd,
      'p/certificate.json',
    );
    expect(row[0]).toBe('[p](../examples/third-party/p/) `adapter.py`');
    expect(row[1]).toBe('pottery 3.0.1');
    expect(row.at(-1)).toBe(
      "`chaoslua certify --impl 'cmd:examples/third-party/p/.venv/bin/python examples/third-party/p/adapter.py' --pattern lock --seed 1301 --no-corpus`",
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-pins-'));
    fs.writeFileSync(path.join(dir, 'requirements.txt'), 'pottery==3.0.1\nredis==8.1.0\n# a comment\n');
    expect(pinnedLibraries(dir)).toEqual({ pottery: '3.0.1', redis: '8.1.0' });
    fs.rmSync(path.join(dir, 'requirements.txt'));
    fs.writeFileSync(
      path.join(dir, 'go.mod'),
      'module x\n\ngo 1.22\n\nrequire (\n\tgithub.com/bsm/redislock v0.9.4\n\tgithub.com/cespare/xxhash/v2 v2.3.0 // indirect\n)\n',
    );
    expect(pinnedLibraries(dir)).toEqual({ 'github.com/bsm/redislock': 'v0.9.4' });
    fs.rmSync(path.join(dir, 'go.mod'));
    fs.writeFileSync(
      path.join(dir, 'pom.xml'),
      '<project><dependencies><dependency>\n<groupId>org.redisson</groupId>\n<artifactId>redisson</artifactId>\n<version>3.52.0</version></dependency></dependencies></project>',
    );
    expect(pinnedLibraries(dir)).toEqual({ 'org.redisson:redisson': '3.52.0' });
    fs.rmSync(dir, { recursive: true });
  });

  it('replaces only what is between the markers, and refuses a README without them', () => {
    const table = renderTable([tableRow(folder, rejected, 'c.json')]);
    expect(table.split('\n')[1]).toBe('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    const readme = `# Title\n\n${START}\nold\n${END}\n\nafter\n`;
    expect(withTable(readme, table, 'README.md')).toBe(`# Title\n\n${START}\n${table}\n${END}\n\nafter\n`);
    expect(() => withTable('# no markers', table, 'README.md')).toThrow(TableError);
  });
});
