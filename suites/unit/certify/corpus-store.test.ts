import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run as corpusCli } from '../../../src/cli/corpus.ts';
import { corpusOption } from '../../../src/cli/gate-flags.ts';
import { replayCorpus } from '../../../src/certify/corpus.ts';
import { corpusLines } from '../../../src/certify/corpus-report.ts';
import { UsageError } from '../../../src/cli/exit-codes.ts';
import {
  CorpusError,
  defaultCorpusDir,
  entryId,
  implIdentity,
  readCorpus,
  recordReplay,
  saveEntry,
} from '../../../src/corpus/store.ts';
import { COUNTEREXAMPLE_VERSION, type Counterexample } from '../../../src/report/counterexample.ts';

// The corpus folder: entries are counterexample files with the implementation's sha256, one per
// failing schedule; anything else in it is refused before a cluster starts.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-corpus-store-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => path.join(root, `c${n++}`);

function counterexample(token: string, pattern: 'lock' | 'idempotency' = 'lock'): Counterexample {
  const input = pattern === 'lock' ? { op: 'acquire', token, ttlMs: 1000 } : { op: 'release', owner: token };
  return {
    version: COUNTEREXAMPLE_VERSION,
    pattern,
    impl: 'lua:/x',
    implSpec: 'lua:/x',
    seed: 5,
    path: '3:1',
    options: {},
    schedule: { pattern, keys: 1, clients: [[{ type: 'op', key: 0, input }]], faults: [] },
    scheduleText: 'c0: acquire',
    history: {
      ops: [
        {
          type: 'op',
          id: 0,
          client: 0,
          key: 'k0',
          input,
          invokedAt: 0,
          completedAt: 1,
          outcome: 'ok',
          output: 'OK',
        } as never,
      ],
      faults: [],
      topology: [],
    },
    result: {
      verdict: 'illegal',
      violations: [{ invariant: 'one-holder', message: 'two holders' } as never],
      keys: [],
    } as never,
  };
}

describe('the corpus store', () => {
  it('saves one entry per schedule, with the sha256, and reads them back as counterexamples', () => {
    const dir = freshDir();
    expect(readCorpus(dir)).toEqual([]); // a folder not made yet is an empty corpus
    const first = saveEntry(dir, counterexample('t1'), 'f'.repeat(64), '/reports/run1');
    expect(first.added).toBe(true);
    expect(path.basename(first.file)).toBe(`${entryId(counterexample('t1').schedule)}.json`);
    expect(saveEntry(dir, counterexample('t1'), 'e'.repeat(64), '/reports/run2')).toEqual({
      file: first.file,
      added: false,
    });
    saveEntry(dir, counterexample('t2'), 'f'.repeat(64), '/reports/run3');
    const entries = readCorpus(dir, 'lock');
    expect(entries).toHaveLength(2);
    // Oldest first, but both may carry the same millisecond: find t1's entry by its id.
    const t1 = (list: typeof entries) => list.find((e) => e.id === entryId(counterexample('t1').schedule))!;
    expect(t1(entries).entry.corpus).toMatchObject({ sha256: 'f'.repeat(64), from: '/reports/run1' });
    expect(t1(entries).entry.seed).toBe(5);
    expect(t1(entries).entry.path).toBe('3:1');
    recordReplay(t1(entries), 'passing', 'b'.repeat(64));
    expect(t1(readCorpus(dir)).entry.corpus.lastReplay).toMatchObject({ status: 'passing', sha256: 'b'.repeat(64) });
  });

  it('refuses a file where the folder should be, a foreign entry, an entry of another pattern', () => {
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, 'x');
    expect(() => readCorpus(file)).toThrow(CorpusError);
    expect(() => readCorpus(file)).toThrow(/not a directory/);
    const dir = freshDir();
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'junk.json'), '{"version": 1}');
    expect(() => readCorpus(dir)).toThrow(/corpus entry .*junk\.json: not a valid counterexample/);
    const plain = freshDir();
    fs.mkdirSync(plain);
    fs.writeFileSync(path.join(plain, 'ce.json'), JSON.stringify(counterexample('t')));
    expect(() => readCorpus(plain)).toThrow(/no corpus block/);
    const other = freshDir();
    saveEntry(other, counterexample('t', 'idempotency'), 'f'.repeat(64), '/r');
    expect(() => readCorpus(other, 'lock')).toThrow(/a idempotency counterexample in a lock corpus/);
  });

  it('defaults to .chaoslua/corpus/<pattern>/ beside the implementation', () => {
    expect(defaultCorpusDir('lua:/srv/app/scripts', 'lock')).toBe('/srv/app/.chaoslua/corpus/lock');
    expect(defaultCorpusDir('module:/srv/app/store.ts', 'idempotency')).toBe('/srv/app/.chaoslua/corpus/idempotency');
    expect(defaultCorpusDir('cmd:python3 x.py', 'ratelimit')).toBe(
      path.join(process.cwd(), '.chaoslua/corpus/ratelimit'),
    );
  });

  it('--corpus: an unreadable corpus is a usage error; --no-corpus turns it off', () => {
    const bad = freshDir();
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, 'x.json'), 'nope');
    expect(() => corpusOption('certify', { corpus: bad }, 'lua:/x', 'lock', 'a')).toThrow(UsageError);
    expect(() => corpusOption('certify', { corpus: bad }, 'lua:/x', 'lock', 'a')).toThrow(
      /^certify: --corpus: corpus entry .*x\.json: not a readable JSON file/,
    );
    expect(corpusOption('certify', { 'no-corpus': true }, 'lua:/x', 'lock', 'a')).toBeUndefined();
    expect(() => corpusOption('certify', { 'no-corpus': true, corpus: bad }, 'lua:/x', 'lock', 'a')).toThrow(
      /--corpus and --no-corpus together/,
    );
    expect(corpusOption('certify', {}, 'lua:/srv/x', 'lock', 'a')).toEqual({
      dir: '/srv/.chaoslua/corpus/lock',
      sha256: 'a',
      impl: 'lua:../../../x',
    });
  });

  it('names an implementation across versions: a path relative to the corpus, a command line as it is', () => {
    expect(implIdentity('lua:/srv/app/scripts', '/srv/app/.chaoslua/corpus/lock')).toBe('lua:../../../scripts');
    expect(implIdentity('module:/srv/app/store.ts', '/srv/app/.chaoslua/corpus/lock')).toBe('module:../../../store.ts');
    expect(implIdentity('cmd:python3 pottery/adapter.py', '/srv/.chaoslua/corpus/lock')).toBe(
      'cmd:python3 pottery/adapter.py',
    );
  });

  it("replays only the entries its own implementation found; another's is reported as foreign, untouched", async () => {
    const dir = freshDir();
    saveEntry(dir, counterexample('t1'), '1'.repeat(64), '/r1', 'cmd:python3 pottery.py');
    const replayer = { pattern: { name: 'lock' } } as unknown as Parameters<typeof replayCorpus>[2];
    const replay = await replayCorpus(
      { dir, sha256: '2'.repeat(64), impl: 'cmd:python3 redis_lock.py' },
      readCorpus(dir),
      replayer,
    );
    expect(replay.entries).toEqual([
      expect.objectContaining({
        status: 'foreign',
        attempts: 0,
        detail: 'found against cmd:python3 pottery.py, not this implementation: not replayed',
      }),
    ]);
    expect(readCorpus(dir)[0].entry.corpus.lastReplay).toBeUndefined();
    expect(corpusLines(replay)[0]).toMatch(/0 still failing, 0 now passing, 1 from another implementation/);
  });
});

describe('chaoslua corpus list|prune', () => {
  const capture = () => {
    const out: string[] = [];
    return { out, io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: () => true } } };
  };

  it('lists each entry with what it broke and its last replay; prune removes only those that passed', async () => {
    const dir = freshDir();
    saveEntry(dir, counterexample('t1'), '1'.repeat(64), '/r1');
    saveEntry(dir, counterexample('t2'), '2'.repeat(64), '/r2');
    const [fixed] = readCorpus(dir).filter((e) => e.entry.corpus.sha256.startsWith('1'));
    recordReplay(fixed, 'passing', '3'.repeat(64));
    const list = capture();
    expect(await corpusCli(['list', dir], list.io)).toBe(0);
    expect(list.out.join('')).toMatch(/2 entries/);
    expect(list.out.join('')).toMatch(
      /one-holder {2}1 ops {2}found against sha256 111111111111 .* last replay passing/,
    );
    expect(list.out.join('')).toMatch(/found against sha256 222222222222 .* never replayed/);
    const dry = capture();
    await corpusCli(['prune', dir, '--dry-run'], dry.io);
    expect(dry.out.join('')).toMatch(/would remove 1 entry/);
    expect(readCorpus(dir)).toHaveLength(2);
    await corpusCli(['prune', dir], capture().io);
    expect(readCorpus(dir).map((e) => e.entry.corpus.sha256[0])).toEqual(['2']);
  });

  it("knows every registered pattern: the semaphore's corpus is listed like the others", async () => {
    const impl = path.join(freshDir(), 'semaphore');
    const list = capture();
    expect(await corpusCli(['list', '--pattern', 'semaphore', '--impl', `lua:${impl}`], list.io)).toBe(0);
    expect(list.out.join('')).toMatch(/corpus[\\/]semaphore/);
  });

  it.each([
    [[], /expected list or prune, got nothing/],
    [['drop'], /expected list or prune, got 'drop'/],
    [['list', '/no/such/corpus'], /no such directory/],
    [['list', '--pattern', 'queue'], /--pattern must be idempotency, lock, ratelimit, semaphore, gcra, got 'queue'/],
  ])('usage %j: one line, exit 2', async (argv, message) => {
    await expect(corpusCli(argv as string[], capture().io)).rejects.toThrow(UsageError);
    await expect(corpusCli(argv as string[], capture().io)).rejects.toThrow(message);
  });
});
