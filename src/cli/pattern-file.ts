/**
 * A pattern a team wrote, from its file: `--pattern ./queue.mjs` (and `check --model ./queue.mjs`)
 * on any command. Loaded here, at the edge, before the command parses its flags: the file is read
 * (bounded), imported (a `.ts` file through tsx), its spec checked and dry-run, and the pattern made
 * known by its name, which replaces the path in the command's arguments. Every problem is the
 * user's: one line naming the file and the member, exit 2, before any cluster starts.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readBounded } from '../files/bounded-read.ts';
import { compilePattern } from '../patterns/define/compile.ts';
import { smokeCheck } from '../patterns/define/smoke.ts';
import { PatternError } from '../patterns/define/validate.ts';
import { addLoadedPattern } from '../patterns/index.ts';
import type { AnyPattern } from '../patterns/types.ts';
import { UsageError } from './exit-codes.ts';

const FLAGS = new Set(['--pattern', '--model']);
const EXTENSIONS = new Set(['.mjs', '.js', '.ts', '.mts']);

/** A flag's value that names a file rather than a pattern: a path, or a name with a module's extension. */
export const isPatternPath = (value: string): boolean =>
  /[/\\]/.test(value) || EXTENSIONS.has(path.extname(value).toLowerCase()) || value.startsWith('.');

const firstLine = (error: unknown): string => ((error as Error)?.message ?? String(error)).split('\n')[0];

async function importFile(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  const typescript = ['.ts', '.mts'].includes(path.extname(file).toLowerCase());
  if (!typescript || import.meta.url.endsWith('.ts')) return (await import(url)) as Record<string, unknown>;
  const { tsImport } = await import('tsx/esm/api');
  return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
}

/** The pattern the file declares, checked, dry-run and made known; a UsageError naming the file otherwise. */
export async function loadPatternFile(given: string, flag = '--pattern'): Promise<AnyPattern> {
  const file = path.resolve(given);
  const where = `${flag} ${given}`;
  if (!EXTENSIONS.has(path.extname(file).toLowerCase()))
    throw new UsageError(`${where}: a pattern file is a module: .mjs, .js, .ts or .mts`);
  if (!fs.existsSync(file)) throw new UsageError(`${where}: no such file`);
  const sha256 = createHash('sha256').update(readBounded(file, 'module')).digest('hex');
  let mod: Record<string, unknown>;
  try {
    mod = await importFile(file);
  } catch (error) {
    // definePattern checks the spec as the file is imported: its error is the pattern's, said as such.
    if ((error as Error)?.name === 'PatternError') throw new UsageError(`${where}: ${firstLine(error)}`);
    throw new UsageError(`${where}: could not be loaded: ${firstLine(error)}`);
  }
  const spec = mod.default ?? mod.pattern;
  if (spec === undefined)
    throw new UsageError(
      `${where}: exports no pattern: export default definePattern({ ... }) (from 'chaoslua/pattern')`,
    );
  try {
    const pattern = compilePattern(spec, { file, sha256 });
    smokeCheck(pattern);
    addLoadedPattern(pattern);
    return pattern;
  } catch (error) {
    if (error instanceof PatternError || error instanceof RangeError || error instanceof TypeError)
      throw new UsageError(`${where}: ${firstLine(error)}`);
    throw error;
  }
}

/** The arguments with every pattern file loaded and named by its pattern's name instead. */
export async function loadPatternFiles(args: readonly string[]): Promise<string[]> {
  const out = [...args];
  for (let i = 0; i < out.length; i++) {
    const [flag, inline] = out[i].split(/=(.*)/s, 2);
    if (!FLAGS.has(flag)) continue;
    const value = inline ?? out[i + 1];
    if (value === undefined || !isPatternPath(value)) continue;
    const { name } = await loadPatternFile(value, flag);
    if (inline !== undefined) out[i] = `${flag}=${name}`;
    else out[++i] = name;
  }
  return out;
}
