// The Redlock libraries of examples/third-party on five independent masters, through the real CLI,
// as their READMEs deploy them: npm redlock (new Redlock over five ioredis clients, module: door's
// options.masters) and Go redsync (redsync.New over five pools, cmd: door's hello masters). Each is
// certified under every fault those masters run and every clock fault, at 8 runs of the seed its
// kept certificate.masters.json was earned with at 40. About 50 s in all (25 s each).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { projectRoot } from '../../src/cluster/binaries.ts';

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-masters-libs-'));
afterAll(() => fs.rmSync(reports, { recursive: true, force: true }));
const SEED = 20261206;

const LIBRARIES = [
  {
    folder: 'redlock',
    impl: 'module:examples/third-party/redlock/store.mjs',
    installed: 'node_modules/redlock/package.json',
  },
  { folder: 'redsync', impl: 'cmd:examples/third-party/redsync/adapter', installed: 'adapter' },
];

for (const library of LIBRARIES) {
  it(`${library.folder} on five independent masters: certified under every fault they run and the clock faults`, () => {
    const dir = path.join(projectRoot, 'examples/third-party', library.folder);
    expect(
      fs.existsSync(path.join(dir, library.installed)),
      `examples/third-party/${library.folder} has no ${library.installed}: run scripts/bootstrap-examples.sh`,
    ).toBe(true);
    const kept = JSON.parse(fs.readFileSync(path.join(dir, 'certificate.masters.json'), 'utf8'));
    expect({ seed: kept.seed, certified: kept.certified, topology: kept.redis.topology }).toEqual({
      seed: SEED,
      certified: true,
      topology: '5 independent masters n0,n1,n2,n3,n4 (no cluster, no replicas)',
    });
    const r = spawnSync(
      process.execPath,
      [
        'bin/chaoslua.mjs',
        'certify',
        '--impl',
        library.impl,
        '--pattern',
        'lock',
        '--topology',
        'masters',
        '--faults',
        'all,clocks',
        '--runs',
        '8',
        '--seed',
        String(SEED),
        '--clusters',
        '1',
        '--report',
        reports,
        '--json',
        '--corpus',
        path.join(reports, `corpus-${library.folder}`),
      ],
      {
        cwd: projectRoot,
        encoding: 'utf8',
        timeout: 240_000,
      },
    );
    const cert = JSON.parse(r.stdout);
    expect(cert.redis.topology).toBe(kept.redis.topology);
    expect(cert.findings).toEqual([]);
    expect(cert.invariants.map((i: { invariant: string; passed: boolean }) => [i.invariant, i.passed])).toEqual([
      ['one-holder', true],
      ['no-stale-release', true],
      ['model-conformance', true],
    ]);
    expect(r.status).toBe(0);
  }, 240_000);
}
