/**
 * No verdict on a real library without a reproduction, so a maintainer can see it fail: every library configuration
 * examples/third-party does not certify keeps, in its findings/, a program that shows the failure
 * with the library alone (`reproduce.<ext>`: no chaoslua, a throwaway Redis of its own, exit 1 when
 * it reproduces), or quotes the library's documentation for what it does not promise
 * (`non-promise.md`). A rejection with neither is a harness error to find, not a verdict to publish.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/cluster/binaries.ts';

const ROOT = path.join(projectRoot, 'examples', 'third-party');
const libraries = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'support' && fs.existsSync(path.join(ROOT, d.name, 'certificate.json')));

/** Every certificate a library folder keeps (certificate.json and certificate.<configuration>.json). */
const certificates = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => /^certificate(\..+)?\.json$/.test(f))
    .map((f) => ({
      file: f,
      certified: (JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { certified: boolean }).certified,
    }));

/** How a reproduction runs, by its extension (a Python one in the folder's own venv when it has one). */
function command(dir: string, file: string): [string, string[]] {
  if (file.endsWith('.mjs') || file.endsWith('.js')) return [process.execPath, [file]];
  if (file.endsWith('.py')) {
    // The library folder's venv (findings/ sits inside it), made by the examples' bootstrap.
    const venv = [dir, path.dirname(dir)].map((d) => path.join(d, '.venv/bin/python')).find((p) => fs.existsSync(p));
    return [venv ?? 'python3', [file]];
  }
  if (file.endsWith('.go')) return ['go', ['run', file]];
  if (file.endsWith('.sh')) return ['bash', [file]];
  throw new Error(`${file}: no way to run a reproduction of this kind`);
}

describe('every rejection of a real library stands on a reproduction with the library alone', () => {
  it('there are libraries to look at', () => expect(libraries.length).toBeGreaterThan(3));

  for (const { name } of libraries) {
    const dir = path.join(ROOT, name);
    const rejected = certificates(dir).filter((c) => !c.certified);
    if (rejected.length === 0) continue;
    it(`${name}: ${rejected.map((c) => c.file).join(', ')} not certified: reproduced, or a documented non-promise`, () => {
      const findings = path.join(dir, 'findings');
      const programs = fs.existsSync(findings) ? fs.readdirSync(findings).filter((f) => /^reproduce\./.test(f)) : [];
      const nonPromise = path.join(findings, 'non-promise.md');
      if (programs.length === 0) {
        expect(fs.existsSync(nonPromise), `${name}/findings has neither a reproduce.* program nor non-promise.md`).toBe(
          true,
        );
        expect(fs.readFileSync(nonPromise, 'utf8')).toMatch(/^> /m); // the library's own words, quoted
        return;
      }
      for (const program of programs) {
        const [cmd, args] = command(findings, path.join(findings, program));
        const run = spawnSync(cmd, args, { cwd: findings, encoding: 'utf8', timeout: 120_000 });
        expect(run.status, `${program}:\n${run.stdout}\n${run.stderr}`).toBe(1);
        expect(run.stdout, `${program}:\n${run.stderr}`).toContain('REPRODUCED');
      }
    }, 300_000);
  }
});
