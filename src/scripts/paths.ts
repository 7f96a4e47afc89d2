import { fileURLToPath } from 'node:url';

/** The project's own scripts for a pattern: lua/<pattern> at the package root. */
export function projectScriptsDir(pattern: string): string {
  return fileURLToPath(new URL(`../../lua/${pattern}`, import.meta.url));
}
