// Which cmd: programs the clock preload reaches, told before any process starts: interpreters and
// dynamically linked programs yes; Go (its own vDSO reads) and static programs no; a shell script
// or a compound command line cannot be told. ELF files are built byte by byte (./elf-fixture.ts), so
// each case holds exactly the one fact it tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { elf } from './elf-fixture.ts';
import {
  bytesReader,
  fileClock,
  programClock,
  readElf as readElfReader,
  shellWords,
} from '../../../src/impl/program-clock.ts';

const readElf = (bytes: Buffer) => readElfReader(bytesReader(bytes));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-program-clock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function program(name: string, bytes: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes, { mode: 0o755 });
  return file;
}

describe('readElf', () => {
  it('finds a Go section and the program interpreter', () => {
    expect(readElf(elf({ interpreter: true, sections: ['.text', '.go.buildinfo'] }))).toEqual({
      go: 'its ELF has a .go.buildinfo section',
      dynamic: true,
    });
    expect(readElf(elf({ interpreter: false, sections: ['.note.go.buildid'] }))?.go).toContain('.note.go.buildid');
    expect(readElf(elf({ interpreter: false, sections: ['.text'] }))).toEqual({ dynamic: false });
    expect(readElf(Buffer.from('#!/bin/sh\n'))).toBeUndefined();
  });

  it("finds Go's build information when the section headers were stripped", () => {
    const stripped = Buffer.concat([
      elf({ interpreter: true, sections: [] }),
      Buffer.from('\xff Go buildinf:\x08\x02', 'latin1'),
    ]);
    stripped.writeUInt16LE(0, 0x3c); // no section headers
    expect(readElf(stripped)).toEqual({ go: "its ELF carries Go's build information", dynamic: true });
  });

  it('reads the node running this test as a dynamically linked program that is not Go', () => {
    expect(programClock(`'${process.execPath}' -e 1`).reads).toBe('c-library');
    expect(fileClock(process.execPath)).toMatchObject({ reads: 'c-library' });
    expect(fileClock(process.execPath).what).toContain('dynamically linked');
  });
});

describe('programClock', () => {
  it('a Go program is not reached, and says why', () => {
    const go = program('adapter', elf({ interpreter: true, sections: ['.go.buildinfo'] }));
    const clock = programClock(`${go} --flag`);
    expect(clock.reads).toBe('not-reached');
    expect(clock.what).toMatch(/a Go program .*vDSO, not the C library/);
    expect(programClock('go run ./cmd/adapter').reads).toBe('not-reached');
  });

  it('a statically linked program is not reached', () => {
    const clock = fileClock(program('static', elf({ interpreter: false, sections: ['.text'] })));
    expect(clock).toMatchObject({ reads: 'not-reached' });
    expect(clock.what).toContain('statically linked');
  });

  it('interpreters known to read the C library are reached, by name or by shebang', () => {
    for (const command of [
      'python3 main.py',
      '.venv/bin/python main.py',
      'node store.mjs',
      'java -jar a.jar',
      'A=1 env B=2 exec pypy3 x.py',
    ])
      expect(programClock(command, dir).reads, command).toBe('c-library');
    expect(fileClock(program('a.py', '#!/usr/bin/env python3\nprint(1)\n')).reads).toBe('c-library');
    expect(fileClock(program('b.mjs', '#!/usr/bin/node\n')).reads).toBe('c-library');
    expect(programClock(`'${process.execPath}' -e 1`).reads).toBe('c-library');
  });

  it('a shell script, a shell or a compound command line cannot be told', () => {
    const script = program('run.sh', '#!/bin/sh\nexec ./adapter\n');
    expect(fileClock(script)).toMatchObject({ reads: 'unknown' });
    expect(fileClock(script).what).toContain('a Go program it starts would not be reached');
    expect(programClock('sh -c ./adapter').reads).toBe('unknown');
    expect(programClock('cd x && ./adapter').reads).toBe('unknown');
    expect(programClock('./missing-program', dir)).toMatchObject({ reads: 'unknown' });
    // Shell syntax inside quotes is an argument, not syntax.
    expect(programClock("node -e 'a && b'").reads).toBe('c-library');
  });
});

describe('shellWords', () => {
  it('splits as the shell splits a simple command', () => {
    expect(shellWords(`a 'b c' "d \\" e" f\\ g`)).toEqual(['a', 'b c', 'd " e', 'f g']);
    expect(shellWords(`a 'b`)).toBeUndefined();
  });
});
