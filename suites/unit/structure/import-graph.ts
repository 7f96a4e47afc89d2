/**
 * The import graph of src/**: every relative import (static, re-export, or dynamic `import()`),
 * resolved to a repository path. Parsed with a regular expression over the source, which is enough
 * for this code base's import style (one specifier string per statement).
 */
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../../..');

export interface ImportEdge {
  /** Repository paths, e.g. "src/runner/run.ts". */
  readonly from: string;
  readonly to: string;
  /** `import type` / `export type`: erased at run time, but still a dependency of the design. */
  readonly typeOnly: boolean;
  readonly dynamic: boolean;
}

const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return entry.name.endsWith('.ts') ? [rel] : [];
  });
}

export function importGraph(dir = 'src'): { files: string[]; edges: ImportEdge[] } {
  const files = sourceFiles(dir);
  const edges: ImportEdge[] = [];
  for (const from of files) {
    const text = fs.readFileSync(path.join(ROOT, from), 'utf8');
    const add = (specifier: string, typeOnly: boolean, dynamic: boolean) => {
      if (!specifier.startsWith('.')) return; // packages and node: builtins
      edges.push({
        from,
        to: path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)),
        typeOnly,
        dynamic,
      });
    };
    for (const m of text.matchAll(STATIC)) add(m[3], m[2] !== undefined, false);
    for (const m of text.matchAll(DYNAMIC)) add(m[1], false, true);
  }
  return { files, edges };
}

/** Every cycle's files, one list per strongly connected component of more than one file (Tarjan). */
export function cycles(files: readonly string[], edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next.get(v)?.includes(v)) found.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}
