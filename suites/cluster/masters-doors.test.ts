// The module: and cmd: doors on independent masters hand an implementation every master, as a
// Redlock user holds them: a module's createStore gets options.masters (one ready client per master,
// in node order) and, as its first argument, the first of them; a program's hello gets masters (every
// master's address, in node order). Three masters, two logical clients; about 2 s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { MastersCluster } from '../../src/cluster/masters.ts';
import { moduleOpener } from '../../src/certify/openers/module.ts';
import { cmdOpener } from '../../src/certify/openers/cmd.ts';
import { lock } from '../../src/patterns/lock/index.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-masters-doors-'));
let masters: MastersCluster;
let clients: Redis[];
beforeAll(async () => {
  masters = await MastersCluster.start({ count: 3, seed: 5 });
  clients = masters.masterClients({ commandTimeout: 1_000 });
}, 30_000);
afterAll(async () => {
  for (const c of clients ?? []) c.disconnect();
  await masters?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('module: createStore gets options.masters, one ready client per master, and the first as its client', async () => {
  const file = path.join(dir, 'store.mjs');
  // Each store counts itself on every master it was handed, and says whether its first argument is masters[0].
  fs.writeFileSync(
    file,
    `export async function createStore(redis, options) {
      for (const m of options.masters) await m.incr('doors:stores');
      await options.masters[0].set('doors:first', String(redis === options.masters[0]));
      const no = async () => 0;
      return { acquire: no, release: no, extend: no };
    }\n`,
  );
  const opened = await moduleOpener(lock, file)(masters, 2);
  try {
    expect(opened.subjects).toHaveLength(2);
    expect(await Promise.all(clients.map((c) => c.get('doors:stores')))).toEqual(['2', '2', '2']);
    expect(await clients[0].get('doors:first')).toBe('true');
  } finally {
    await opened.close();
  }
});

it("cmd: the hello carries masters, every master's address in node order", async () => {
  const program = path.join(dir, 'program.mjs');
  // Answers the hello with the masters' ports as its version, then serves nothing.
  fs.writeFileSync(
    program,
    `import readline from 'node:readline';
    const lines = readline.createInterface({ input: process.stdin });
    lines.once('line', (line) => {
      const hello = JSON.parse(line);
      const ports = (hello.masters ?? []).map((m) => m.port).join(',');
      process.stdout.write(JSON.stringify({ type: 'hello', protocol: 'chaoslua-process/1', name: 'masters', version: ports, patterns: ['lock'] }) + '\\n');
      lines.on('line', (l) => { if (JSON.parse(l).type === 'shutdown') process.exit(0); });
    });\n`,
  );
  const opened = await cmdOpener(lock, `${JSON.stringify(process.execPath)} ${JSON.stringify(program)}`, {
    stderrFile: path.join(dir, 'stderr.log'),
  })(masters, 2);
  try {
    expect(opened.findings()).toEqual([]);
    expect(opened.impl).toBe(
      `cmd:${JSON.stringify(process.execPath)} ${JSON.stringify(program)} (masters ${masters
        .seeds()
        .map((s) => s.port)
        .join(',')})`,
    );
    expect(masters.seeds()).toHaveLength(3);
  } finally {
    await opened.close();
  }
});
