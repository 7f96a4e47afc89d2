#!/usr/bin/env node
// The package's compiled JavaScript: `npm run build` (and `npm pack`, through prepack). Plain
// JavaScript on purpose: it runs before anything is compiled and needs no TypeScript loader.
//
// tsc (tsconfig.build.json) compiles src/ and the scenario catalogue into dist/src and dist/scenarios,
// rewriting `./x.ts` imports to `./x.js`. The code finds its runtime files relative to itself (lua/
// two folders up from src/scripts, the scenarios' .lua beside their modules, the installer under
// scripts/), so dist/ is laid out as the checkout is and those files are copied in beside the code.
// Why tsc rather than a bundler: every module keeps its own file and import.meta.url, so those
// relative paths, the lazily loaded commands and the public barrel's types stay as they are.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const started = Date.now();

fs.rmSync(dist, { recursive: true, force: true });
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
} catch {
  process.stderr.write('build: tsc failed (its errors are above)\n');
  process.exit(1);
}

/** Copies `from` (a file or a folder, recursively, keeping only files `keep` accepts) to the same place under dist/. */
function copy(from, keep = () => true) {
  const source = path.join(root, from);
  const target = path.join(dist, from);
  if (fs.statSync(source).isDirectory()) {
    for (const name of fs.readdirSync(source)) copy(path.join(from, name), keep);
    return;
  }
  if (!keep(from)) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(source, target);
}

copy('lua');
// The scenarios' scripts, beside the compiled modules that read them; only the scenarios the
// catalogue compiled (not the mutant and alternative catalogues, which the tests use).
for (const dir of fs.readdirSync(path.join(dist, 'scenarios'))) {
  if (fs.statSync(path.join(dist, 'scenarios', dir)).isDirectory())
    copy(path.join('scenarios', dir), (f) => f.endsWith('.lua'));
}
copy('docker-compose.cluster.yml');
// The clock preload's source: built with the C compiler on first use (src/clock/library.ts), never shipped built.
copy('native/clockshift.c');
copy('scripts/install-tools.sh');
fs.chmodSync(path.join(dist, 'scripts/install-tools.sh'), 0o755);
// A private Docker engine for --cluster compose where there is none (docs/clusters.md), beside the compose file.
copy('scripts/docker-engine.sh');
fs.chmodSync(path.join(dist, 'scripts/docker-engine.sh'), 0o755);

const files = (dir) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .reduce((n, e) => n + (e.isDirectory() ? files(path.join(dir, e.name)) : 1), 0);
process.stdout.write(`build: dist/ (${files(dist)} files) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
