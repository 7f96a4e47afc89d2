import { readdir, stat } from 'node:fs/promises';
import { InputLimitError, readBoundedText } from '../files/bounded-read.ts';
import path from 'node:path';
import { type Finding, compareFindings } from './finding.ts';
import { lintSource } from './lint-source.ts';
import type { LintTarget } from './target.ts';

/** A file as given, or every *.lua under a directory (recursively), sorted by path. */
export async function luaFilesAt(fileOrDir: string): Promise<string[]> {
  const info = await stat(fileOrDir);
  if (!info.isDirectory()) return [fileOrDir];
  const entries = await readdir(fileOrDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.lua'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

export async function lintFiles(files: readonly string[], target?: LintTarget): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const file of files) {
    let source: string;
    try {
      source = readBoundedText(file, 'Lua script');
    } catch (error) {
      // A script no bound allows is the user's input to fix, not a finding about Lua.
      if (error instanceof InputLimitError) throw error;
      // A file that cannot be read is one Redis would never load: a finding, not a crash.
      findings.push({
        rule: 'syntax',
        severity: 'error',
        file,
        line: 1,
        column: 1,
        message: `cannot be read: ${(error as Error).message.split('\n')[0]}`,
      });
      continue;
    }
    findings.push(...lintSource(source, file, target));
  }
  return findings.sort(compareFindings);
}

/** Lints a Lua file, or every *.lua under a directory. Rejects when the path does not exist. */
export async function lintPath(fileOrDir: string, target?: LintTarget): Promise<Finding[]> {
  return lintFiles(await luaFilesAt(fileOrDir), target);
}
