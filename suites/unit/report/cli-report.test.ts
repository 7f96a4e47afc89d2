import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/exit-codes.ts';
import { run } from '../../../src/cli/report.ts';
import { serveReports } from '../../../src/report/html/serve.ts';

const FIXTURES = new URL('../../report/fixtures/', import.meta.url).pathname;
const NEWEST = '20261130-081012-run-7';
const OLDER = '20261130-080448-run-1';

let root: string;
let display: string | undefined;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-cli-report-'));
  // No xdg-open from a test.
  display = process.env.DISPLAY;
  delete process.env.DISPLAY;
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
  if (display !== undefined) process.env.DISPLAY = display;
});

function copyRuns(...names: string[]) {
  for (const name of names) fs.cpSync(path.join(FIXTURES, name), path.join(root, name), { recursive: true });
}

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) } },
    out,
    err,
  };
}

async function usageError(argv: string[]): Promise<string> {
  const error = await run(argv, io().io).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

describe('chaoslua report open', () => {
  it("prints the newest run's report.html, writing it and the index first", async () => {
    copyRuns(OLDER, NEWEST);
    const { io: sink, out } = io();
    expect(await run(['open', '--report', root], sink)).toBe(0);
    const file = path.join(root, NEWEST, 'report.html');
    expect(out.join('')).toBe(`${file}\n`);
    expect(fs.readFileSync(file, 'utf8')).toContain('<h1 id="verdict">FAILED</h1>');
    expect(fs.existsSync(path.join(root, 'index.html'))).toBe(true);
  });

  it('opens a named run, and leaves an existing report alone', async () => {
    copyRuns(OLDER, NEWEST);
    fs.writeFileSync(path.join(root, OLDER, 'report.html'), 'kept');
    const { io: sink, out } = io();
    expect(await run(['open', OLDER, '--report', root], sink)).toBe(0);
    expect(out.join('')).toBe(`${path.join(root, OLDER, 'report.html')}\n`);
    expect(fs.readFileSync(path.join(root, OLDER, 'report.html'), 'utf8')).toBe('kept');
  });

  it('refuses a missing run, an empty folder, unknown flags and subcommands with one line', async () => {
    expect(await usageError(['open', '--report', root])).toMatch(/no run folders under/);
    copyRuns(OLDER);
    expect(await usageError(['open', 'nope', '--report', root])).toBe(`report open: no run 'nope' under ${root}`);
    expect(await usageError(['open', '--colour', '--report', root])).toMatch(/report open: .*--colour/);
    expect(await usageError(['open', 'a', 'b', '--report', root])).toMatch(/one run at most/);
    expect(await usageError(['publish'])).toMatch(/unknown subcommand 'publish'/);
    expect(await usageError(['serve', '--port', '70000', '--report', root])).toMatch(
      /--port must be an integer in \[0, 65535\]/,
    );
    expect(await usageError(['serve', 'extra'])).toMatch(/report serve/);
  });

  it('asks for a subcommand when given none (exit 2)', async () => {
    const { io: sink, err } = io();
    expect(await run([], sink)).toBe(2);
    expect(err.join('')).toContain('usage: chaoslua report open');
  });
});

describe('report server', () => {
  it('serves the index, generates a report on request, and nothing outside reports/', async () => {
    copyRuns(OLDER, NEWEST);
    const server = await serveReports(root, 0);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const index = await fetch(server.url);
      expect(index.status).toBe(200);
      expect(await index.text()).toContain(NEWEST);
      const report = await fetch(`${server.url}${NEWEST}/`);
      expect(report.headers.get('content-type')).toContain('text/html');
      expect(await report.text()).toContain('<h1 id="verdict">FAILED</h1>');
      expect((await fetch(`${server.url}${NEWEST}`, { redirect: 'manual' })).status).toBe(301);
      // The URL parser folds dot segments; an encoded slash survives it and is refused.
      expect((await fetch(`${server.url}%2e%2e/%2e%2e/etc/passwd`)).status).toBe(404);
      expect((await fetch(`${server.url}..%2f..%2fetc%2fpasswd`)).status).toBe(403);
      expect((await fetch(`${server.url}nope.html`)).status).toBe(404);
      expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});
