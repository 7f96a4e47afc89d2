// The flow one way (generator -> runner -> history -> checker -> report), the plan's vocabulary owned
// by no stage, patterns as plugins the stages read, and no import cycle: checked on the import graph
// of src, so a change that breaks one fails here, naming the importing file and what it imported.
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, type ImportEdge } from './import-graph.ts';

const { files, edges } = importGraph('src');

/** The src folder of a repository path ("src/runner/run.ts" -> "runner"); the top tree outside src. */
const folderOf = (file: string) => {
  const parts = file.split('/');
  return parts[0] === 'src' && parts.length > 2 ? parts[1] : parts[0] === 'src' ? '(src)' : `${parts[0]}/`;
};

const show = (e: ImportEdge) => `${e.from} imports ${e.to}${e.typeOnly ? ' (type)' : ''}`;

/** Imports from files of `folder` (all but `except`) into any of `forbidden`. */
function crossing(folder: string, forbidden: readonly string[], except: readonly string[] = []): string[] {
  return edges.filter((e) => folderOf(e.from) === folder && !except.includes(e.from) && forbidden.includes(folderOf(e.to))).map(show);
}

/** Imports from files of `folder` into anything but `allowed` (and itself). */
function outside(folder: string, allowed: readonly string[], except: readonly string[] = []): string[] {
  return edges.filter((e) => folderOf(e.from) === folder && !except.includes(e.from) && folderOf(e.to) !== folder && !allowed.includes(folderOf(e.to))).map(show);
}

describe('the import graph of src', () => {
  it('is read whole: every stage folder has files and imports', () => {
    // Guards the parser: a regular expression that stopped matching would make every rule pass.
    expect(files.length).toBeGreaterThan(150);
    expect(edges.length).toBeGreaterThan(500);
    for (const folder of ['plan', 'history', 'faults', 'generator', 'runner', 'nemesis', 'checker', 'report', 'certify', 'patterns', 'scripts', 'subject', 'cli']) {
      expect(files.some((f) => folderOf(f) === folder), folder).toBe(true);
    }
    expect(edges).toContainEqual({ from: 'src/generator/index.ts', to: 'src/plan/schedule.ts', typeOnly: true, dynamic: false });
    expect(edges).toContainEqual({ from: 'src/runner/run.ts', to: 'src/nemesis/nemesis.ts', typeOnly: false, dynamic: false });
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

  it('keeps the models pure: a model file imports other model files only (the barrel re-exports the patterns\' models)', () => {
    expect(outside('model', [], ['src/model/index.ts'])).toEqual([]);
  });

  it('runs the flow one way: no stage imports a later one', () => {
    expect(crossing('generator', ['runner', 'nemesis', 'history', 'checker', 'report', 'certify', 'cli', 'cluster', 'subject'])).toEqual([]);
    expect(crossing('runner', ['generator', 'checker', 'report', 'certify', 'cli'])).toEqual([]);
    expect(crossing('nemesis', ['runner', 'generator', 'checker', 'report', 'certify', 'cli'])).toEqual([]);
    expect(crossing('checker', ['generator', 'runner', 'nemesis', 'cluster', 'subject', 'report', 'certify', 'cli'])).toEqual([]);
    expect(crossing('report', ['runner', 'nemesis', 'certify', 'cli'])).toEqual([]);
  });

  it('keeps the fault descriptors plugins the stages read: they know the plan, the history and the cluster\'s interface (types), no stage', () => {
    expect(crossing('faults', ['generator', 'runner', 'nemesis', 'checker', 'report', 'certify', 'cli', 'patterns', 'subject', 'scripts'])).toEqual([]);
    // The generator reads the descriptors: their apply halves act on a cluster through its interface only,
    // so drawing a schedule loads no cluster code.
    expect(edges.filter((e) => folderOf(e.from) === 'faults' && folderOf(e.to) === 'cluster' && !e.typeOnly).map(show)).toEqual([]);
  });

  it('keeps patterns plugins: a pattern knows the stages\' vocabulary, not their machinery', () => {
    expect(crossing('patterns', ['runner', 'nemesis', 'cluster', 'report', 'certify', 'cli'])).toEqual([]);
  });

  it('keeps the script runtime below the clients that use it', () => {
    expect(crossing('scripts', ['patterns', 'subject', 'generator', 'runner', 'nemesis', 'checker', 'report', 'certify', 'cli'])).toEqual([]);
  });

  it('keeps the Subject adapters apart from the stages that drive them', () => {
    expect(crossing('subject', ['generator', 'runner', 'nemesis', 'checker', 'report', 'certify', 'cli'])).toEqual([]);
  });

  it('never reaches out of src into the trees built on it (scenarios, examples, suites, bench)', () => {
    expect(edges.filter((e) => !e.to.startsWith('src/')).map(show)).toEqual([]);
  });
});
