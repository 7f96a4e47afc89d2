import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../cluster/binaries.ts';

/** docs/ of the checkout, or of the package (whose runtime files sit in dist/, beside docs/). */
function docsDir(): string {
  return (
    [path.join(projectRoot, 'docs'), path.join(projectRoot, '..', 'docs')].find((d) => fs.existsSync(d)) ??
    path.join(projectRoot, 'docs')
  );
}

/** The page of a command (docs/commands/<command>.md), or the index of them all. */
export const commandPage = (command?: string) => path.join(docsDir(), 'commands', `${command ?? 'README'}.md`);

/** The last line of every command's --help: where its page is. */
export const helpFooter = (command?: string) => `\nmore: ${commandPage(command)}\n`;
