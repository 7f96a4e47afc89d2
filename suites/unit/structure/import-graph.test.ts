// The flow one way (generator -> runner -> history -> checker -> report), the plan's vocabulary owned
// by no stage, patterns handed to the stages as values (only the edge looks one up in the registry),
// and no import cycle, between files or between folders: checked on the import graph of src, so a
// change that breaks one fails here, naming the importing file and what it imported.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULT_DESCRIPTORS } from '../../../src/faults/index.ts';
import { cycles, importGraph, ROOT, type ImportEdge } from './import-graph.ts';

const { files, edges } = importGraph('src');

/** The public pattern module (chaoslua/pattern): the patterns folder's door, what a team imports. */
const PATTERN_API = 'src/pattern.ts';

/** The built-in patterns, each a folder of src/patterns written on the public pattern module alone. */
const BUILT_INS = ['idempotency', 'lock', 'ratelimit', 'semaphore', 'gcra'];

/**
 * The src folder of a repository path ("src/runner/run.ts" -> "runner"); the top tree outside src.
 * The public pattern module counts as the patterns folder it fronts: it re-exports the folder's
 * building blocks and the built-in patterns import it, which is an import within one folder.
 */
const folderOf = (file: string) => {
  if (file === PATTERN_API) return 'patterns';
  const parts = file.split('/');
  return parts[0] === 'src' && parts.length > 2 ? parts[1] : parts[0] === 'src' ? '(src)' : `${parts[0]}/`;
};

const show = (e: ImportEdge) => `${e.from} imports ${e.to}${e.typeOnly ? ' (type)' : ''}`;

/** Imports from files of `folder` (all but `except`) into any of `forbidden`. */
function crossing(folder: string, forbidden: readonly string[], except: readonly string[] = []): string[] {
  return edges
    .filter((e) => folderOf(e.from) === folder && !except.includes(e.from) && forbidden.includes(folderOf(e.to)))
    .map(show);
}

/** Imports from files of `folder` into anything but `allowed` (and itself). */
function outside(folder: string, allowed: readonly string[], except: readonly string[] = []): string[] {
  return edges
    .filter(
      (e) =>
        folderOf(e.from) === folder &&
        !except.includes(e.from) &&
        folderOf(e.to) !== folder &&
        !allowed.includes(folderOf(e.to)),
    )
    .map(show);
}

/** The pipeline's folders: the stages, the vocabularies they share, and the plugins they read. */
const PIPELINE = [
  'plan',
  'history',
  'cluster',
  'resp',
  'faults',
  'generator',
  'process-protocol',
  'subject',
  'nemesis',
  'runner',
  'checker',
  'report',
];

/** Imports between different folders of `among`, as edges between the folders. */
function folderEdges(among: readonly string[], all: readonly ImportEdge[] = edges): ImportEdge[] {
  return all
    .filter(
      (e) => among.includes(folderOf(e.from)) && among.includes(folderOf(e.to)) && folderOf(e.from) !== folderOf(e.to),
    )
    .map((e) => ({ ...e, from: folderOf(e.from), to: folderOf(e.to) }));
}

/** A built-in pattern's imports that go anywhere but its own folder and the public pattern module. */
function pastThePublicApi(all: readonly ImportEdge[]): string[] {
  return all
    .filter((e) => BUILT_INS.some((name) => e.from.startsWith(`src/patterns/${name}/`)))
    .filter((e) => e.to !== PATTERN_API && path.posix.dirname(e.to) !== path.posix.dirname(e.from))
    .map(show);
}

describe('the import graph of src', () => {
  it('is read whole: every stage folder has files and imports', () => {
    // Guards the parser: a regular expression that stopped matching would make every rule pass.
    expect(files.length).toBeGreaterThan(150);
    expect(edges.length).toBeGreaterThan(500);
    for (const folder of [
      'plan',
      'history',
      'faults',
      'process-protocol',
      'generator',
      'runner',
      'nemesis',
      'checker',
      'report',
      'certify',
      'patterns',
      'scripts',
      'subject',
      'cli',
    ]) {
      expect(
        files.some((f) => folderOf(f) === folder),
        folder,
      ).toBe(true);
    }
    expect(edges).toContainEqual({
      from: 'src/generator/index.ts',
      to: 'src/plan/schedule.ts',
      typeOnly: true,
      dynamic: false,
    });
    expect(edges).toContainEqual({
      from: 'src/runner/run.ts',
      to: 'src/nemesis/nemesis.ts',
      typeOnly: false,
      dynamic: false,
    });
  });

  it('has no cycle, type-only imports included', () => {
    expect(cycles(files, edges)).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const a = 'src/x/a.ts';
    const b = 'src/x/b.ts';
    const loop: ImportEdge[] = [
      { from: a, to: b, typeOnly: false, dynamic: false },
      { from: b, to: a, typeOnly: true, dynamic: false },
    ];
    expect(cycles([a, b], loop)).toEqual([[a, b]]);
  });

  it('keeps the plan vocabulary a leaf owned by no stage', () => {
    expect(outside('plan', [])).toEqual([]);
  });

  it('keeps the history (records, Recorder, Clock) below every stage: it knows only the plan', () => {
    expect(outside('history', ['plan'])).toEqual([]);
  });

  it('keeps the models pure: a model file imports other model files only', () => {
    expect(outside('model', [])).toEqual([]);
  });

  it('runs the flow one way: no stage imports a later one', () => {
    expect(
      crossing('generator', [
        'runner',
        'nemesis',
        'history',
        'checker',
        'report',
        'certify',
        'cli',
        'cluster',
        'subject',
      ]),
    ).toEqual([]);
    expect(crossing('runner', ['generator', 'checker', 'report', 'certify', 'cli'])).toEqual([]);
    expect(crossing('nemesis', ['runner', 'generator', 'checker', 'report', 'certify', 'cli'])).toEqual([]);
    expect(
      crossing('checker', [
        'generator',
        'runner',
        'nemesis',
        'faults',
        'cluster',
        'subject',
        'process-protocol',
        'report',
        'certify',
        'cli',
      ]),
    ).toEqual([]);
    expect(
      crossing('report', [
        'generator',
        'runner',
        'nemesis',
        'faults',
        'cluster',
        'subject',
        'process-protocol',
        'certify',
        'cli',
      ]),
    ).toEqual([]);
  });

  it("keeps the fault descriptors plugins the stages read: they know the plan, the history and the cluster's interface (types), no stage", () => {
    expect(
      crossing('faults', [
        'generator',
        'runner',
        'nemesis',
        'checker',
        'report',
        'certify',
        'cli',
        'patterns',
        'subject',
        'scripts',
      ]),
    ).toEqual([]);
    // The generator reads the descriptors: their apply halves act on a cluster through its interface only,
    // so drawing a schedule loads no cluster code.
    expect(
      edges.filter((e) => folderOf(e.from) === 'faults' && folderOf(e.to) === 'cluster' && !e.typeOnly).map(show),
    ).toEqual([]);
  });

  it('hands the pattern down as a value: no stage imports the pattern registry, or any pattern', () => {
    // A stage is given the pattern (a SessionSource, a CheckSpec, a declared-input hook); looking one
    // up by name is the edge's (cli, certify, check, replay) and nobody else's.
    const stages = [
      'checker',
      'model',
      'generator',
      'runner',
      'nemesis',
      'faults',
      'cluster',
      'resp',
      'plan',
      'history',
      'subject',
      'scripts',
      'lint',
    ];
    for (const stage of stages) expect(crossing(stage, ['patterns']), stage).toEqual([]);
  });

  it("keeps patterns plugins: a pattern knows the stages' vocabulary, not their machinery", () => {
    expect(crossing('patterns', ['runner', 'nemesis', 'cluster', 'report', 'certify', 'cli'])).toEqual([]);
  });

  it('writes the built-in patterns on the public pattern API: a built-in imports its own folder and chaoslua/pattern, nothing a team cannot', () => {
    for (const name of BUILT_INS) {
      expect(
        edges.some((e) => e.from.startsWith(`src/patterns/${name}/`) && e.to === PATTERN_API),
        name,
      ).toBe(true);
    }
    expect(pastThePublicApi(edges)).toEqual([]);
  });

  it('catches a built-in pattern that reaches past the public pattern API (the check can fail)', () => {
    const inside: ImportEdge = {
      from: 'src/patterns/lock/model.ts',
      to: 'src/model/types.ts',
      typeOnly: true,
      dynamic: false,
    };
    const sibling: ImportEdge = {
      from: 'src/patterns/gcra/races.ts',
      to: 'src/patterns/time-scale.ts',
      typeOnly: false,
      dynamic: false,
    };
    const otherBuiltIn: ImportEdge = {
      from: 'src/patterns/semaphore/index.ts',
      to: 'src/patterns/lock/levels.ts',
      typeOnly: false,
      dynamic: false,
    };
    const own: ImportEdge = {
      from: 'src/patterns/lock/index.ts',
      to: 'src/patterns/lock/model.ts',
      typeOnly: false,
      dynamic: false,
    };
    expect(pastThePublicApi([...edges, inside, sibling, otherBuiltIn, own])).toEqual([
      show(inside),
      show(sibling),
      show(otherBuiltIn),
    ]);
  });

  it('keeps the script runtime below the clients that use it', () => {
    expect(
      crossing('scripts', [
        'patterns',
        'subject',
        'generator',
        'runner',
        'nemesis',
        'checker',
        'report',
        'certify',
        'cli',
      ]),
    ).toEqual([]);
  });

  it('keeps the Subject adapters apart from the stages that drive them', () => {
    expect(
      crossing('subject', ['generator', 'runner', 'nemesis', 'faults', 'checker', 'report', 'certify', 'cli']),
    ).toEqual([]);
  });

  it('keeps the process protocol below the Subject adapter that speaks it: it knows the plan and the patterns only', () => {
    expect(outside('process-protocol', ['plan', 'patterns'])).toEqual([]);
  });

  it('keeps the job options below the CLI that parses strings into them', () => {
    expect(
      edges
        .filter(
          (e) =>
            e.from === 'src/certify/options.ts' && ['cli', 'cluster', 'runner', 'subject'].includes(folderOf(e.to)),
        )
        .map(show),
    ).toEqual([]);
  });

  it("keeps a job's options at the edge: no file below cli/ and certify/ names JobOptions, every stage takes its own narrow input", () => {
    // The job (certify/job.ts) hands each step its part: the environment its spec, the run a RunStep
    // with ChaosOptions, the judge a JudgeInput, the write its record; the runner, nemesis, checker and
    // report never see the 29 fields. The barrel (src/index.ts) re-exports the type for the API.
    const naming = files.filter((f) =>
      /\bJobOptions\b/.test(fs.readFileSync(path.join(ROOT, f), 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')),
    );
    expect(naming.length).toBeGreaterThan(3); // guards the pattern: the edge itself names it
    expect(naming.filter((f) => !['certify', 'cli', '(src)'].includes(folderOf(f)))).toEqual([]);
  });

  it("has no cycle between the pipeline's folders either: the stages and their vocabularies form one order", () => {
    expect(cycles(PIPELINE, folderEdges(PIPELINE))).toEqual([]);
  });

  it('has no cycle between any two folders of src: every import runs down one order of folders', () => {
    const folders = [...new Set(files.map(folderOf))];
    expect(cycles(folders, folderEdges(folders))).toEqual([]);
  });

  it('finds a cycle between folders when there is one (the check can fail)', () => {
    const back: ImportEdge = { from: 'src/plan/x.ts', to: 'src/report/y.ts', typeOnly: true, dynamic: false };
    expect(cycles(PIPELINE, folderEdges(PIPELINE, [...edges, back])).flat()).toEqual(
      expect.arrayContaining(['plan', 'report']),
    );
  });

  it("keeps the fault names in the descriptors: no other file lists them (the steps' and records' own kinds aside)", () => {
    const names = FAULT_DESCRIPTORS.map((f) => f.name);
    // The plan's step kinds, the history's record kinds and the counterexample file's schema of the
    // steps share some words with the fault names; they are their own vocabularies.
    const ownKinds = ['src/plan/schedule.ts', 'src/history/types.ts', 'src/report/counterexample-schema.ts'];
    const lists = files
      .filter((f) => folderOf(f) !== 'faults' && !ownKinds.includes(f))
      .map(
        (f) =>
          [
            f,
            names.filter((n) => new RegExp(`['"\`]${n}['"\`]`).test(fs.readFileSync(path.join(ROOT, f), 'utf8'))),
          ] as const,
      )
      .filter(([, found]) => found.length > 3)
      .map(([f, found]) => `${f} names ${found.join(', ')}`);
    expect(lists).toEqual([]);
  });

  it('never reaches out of src into the trees built on it (scenarios, examples, suites, bench)', () => {
    expect(edges.filter((e) => !e.to.startsWith('src/')).map(show)).toEqual([]);
  });
});
