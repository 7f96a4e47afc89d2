import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import type { Io } from '../../../src/cli/io.ts';

export const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'porcupine');

/** Runs the CLI in-process and keeps what it printed. */
export async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (s: string) => ((stdout += s), true) },
    stderr: { write: (s: string) => ((stderr += s), true) },
  } as unknown as Io;
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** A fresh temporary folder, removed when the test that made it ends (call it inside a test). */
export function tempDir(prefix = 'chaoslua-ingest-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A file in a fresh temporary folder holding `text`. */
export function tempFile(name: string, text: string): string {
  const dir = tempDir();
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** `chaoslua check FILE --json`'s verdict and exit code, with nothing on stderr. */
export async function porcupineVerdictOf(file: string): Promise<{ code: number; verdict: string }> {
  const { code, stdout, stderr } = await cli('check', file, '--no-report', '--json');
  if (stderr !== '') throw new Error(`check ${file} printed on stderr: ${stderr}`);
  return { code, verdict: (JSON.parse(stdout) as { verdict: string }).verdict };
}
