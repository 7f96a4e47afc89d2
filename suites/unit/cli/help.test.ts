/**
 * Every command's --help lists every flag its parser takes, each with its default (or saying it is
 * required), and ends with the path of the command's page under docs/commands/, which exists. A flag
 * added to a parser and not to the help, or a help that forgets the default, fails here by name.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/main.ts';
import { cli } from './support.ts';

interface CommandModule {
  readonly FLAGS: Readonly<Record<string, { readonly type: string; readonly short?: string }>>;
}

/** The lines of one flag's entry: its own line and the indented lines that continue it. */
function flagEntry(help: string, flag: string): string | undefined {
  const lines = help.split('\n');
  const at = lines.findIndex((line) => new RegExp(`^\\s+(-\\w, )?--${flag}(\\s|$|=)`).test(line));
  if (at < 0) return undefined;
  const entry = [lines[at]];
  for (const line of lines.slice(at + 1)) {
    if (!/^\s{6,}\S/.test(line) || /^\s+-/.test(line)) break;
    entry.push(line);
  }
  return entry.join('\n');
}

const names = Object.keys(COMMANDS);

describe('--help of every command', () => {
  it('covers every command of the CLI', () => {
    expect(names.sort()).toEqual([
      'certify',
      'check',
      'cluster',
      'corpus',
      'export',
      'install',
      'lint',
      'merge',
      'replay',
      'report',
      'run',
      'scenario',
    ]);
  });

  it.each(names)('%s: every flag of its parser, with its default', async (name) => {
    const { FLAGS } = (await COMMANDS[name].load()) as unknown as CommandModule;
    const { code, stdout } = await cli([name, '--help']);
    expect(code).toBe(0);
    const missing: string[] = [];
    for (const flag of Object.keys(FLAGS)) {
      // -h, --help prints the help itself: it has nothing to default.
      if (flag === 'help') continue;
      const entry = flagEntry(stdout, flag);
      if (entry === undefined) missing.push(`--${flag} is not in the help`);
      else if (!/\bdefault\b|\brequired\b/.test(entry))
        missing.push(`--${flag} has no default in the help: ${JSON.stringify(entry)}`);
    }
    expect(missing).toEqual([]);
  });

  it.each(names)('%s: ends with the path of its page, which exists', async (name) => {
    const { stdout } = await cli([name, '--help']);
    const page = /\nmore: (\S+)\n$/.exec(stdout)?.[1];
    expect(page).toMatch(new RegExp(`docs/commands/${name}\\.md$`));
    expect(fs.existsSync(page!)).toBe(true);
  });

  it('chaoslua --help names every command and the index of their pages', async () => {
    const { stdout } = await cli(['--help']);
    for (const name of names) expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    const index = /\nmore: (\S+)\n$/.exec(stdout)?.[1];
    expect(index).toMatch(/docs\/commands\/README\.md$/);
    const text = fs.readFileSync(index!, 'utf8');
    for (const name of names) expect(text).toContain(`(${name}.md)`);
  });
});
