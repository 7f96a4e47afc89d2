import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A process that holds reaped resources and has also loaded signal-exit (testcontainers'
// proper-lockfile does, on --cluster compose) must still end by SIGTERM: each listener re-raises the
// signal only when it is alone, and before the reaper counted signal-exit's as passive neither did.
const ROOT = path.resolve(import.meta.dirname, '../../..');
const CHILD = `
  import { createRequire } from 'node:module';
  import { reapedDir } from './src/cluster/reaper.ts';
  const dir = reapedDir('chaoslua-reaper-signal-exit');
  const require = createRequire(new URL('./node_modules/proper-lockfile/package.json', import.meta.url));
  const onExit = require('signal-exit');
  onExit(() => {});
  process.stdout.write(dir.dir + '\\n');
  setInterval(() => {}, 1000);
`;

describe('the reaper beside signal-exit', () => {
  it('ends by SIGTERM, the reaped folder gone', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const dir = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
      child.once('exit', (code) => reject(new Error(`child ended first (${code})`)));
    });
    expect(fs.existsSync(dir)).toBe(true);
    const ended = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.once('exit', (code, signal) => resolve(signal ?? code)),
    );
    child.kill('SIGTERM');
    // A hang guard, not a speed bound: before the fix the child ran on until killed.
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const how = await ended;
    clearTimeout(guard);
    expect(how).toBe('SIGTERM');
    expect(fs.existsSync(dir)).toBe(false);
  }, 30_000);
});
