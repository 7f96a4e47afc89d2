import fs from 'node:fs';
import path from 'node:path';

/** reports/<stamp>-<command>-<seed>/ (check: <stamp>-check-<model>/): one folder per run holds everything the run produced. */
export function createRunFolder(root: string, command: string, seed: number | string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  let dir = path.join(root, `${stamp}-${command}-${seed}`);
  for (let n = 2; fs.existsSync(dir); n++) dir = path.join(root, `${stamp}-${command}-${seed}-${n}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export function writeJson(dir: string, name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
  return file;
}
