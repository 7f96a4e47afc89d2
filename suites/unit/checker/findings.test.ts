import { describe, expect, it } from 'vitest';
import { noscriptFinding } from '../../../src/checker/findings.ts';
import type { History, OpRecord } from '../../../src/history/types.ts';

let id = 0;
const op = (client: number, at: number, error?: string): OpRecord => ({
  type: 'op',
  id: id++,
  client,
  key: 'k',
  input: { op: 'register' },
  invokedAt: at,
  completedAt: at + 1,
  ...(error ? { outcome: 'fail' as const, error } : { outcome: 'ok' as const, output: ['fresh'] }),
});
const history = (ops: OpRecord[]): History => ({ ops, faults: [], topology: [] });
const NOSCRIPT = 'NOSCRIPT No matching script. Please use EVAL.';

describe('noscript-unhandled', () => {
  it('two NOSCRIPT failures in a row by one client is the finding', () => {
    const finding = noscriptFinding(history([op(0, 0), op(0, 10, NOSCRIPT), op(0, 20, NOSCRIPT)]));
    expect(finding).toMatch(/^noscript-unhandled: client c0/);
  });

  it('one NOSCRIPT (a wipe between reload and retry), or NOSCRIPTs of different clients, is not', () => {
    expect(noscriptFinding(history([op(0, 0, NOSCRIPT), op(0, 10), op(0, 20, NOSCRIPT)]))).toBeUndefined();
    expect(noscriptFinding(history([op(0, 0, NOSCRIPT), op(1, 5, NOSCRIPT)]))).toBeUndefined();
    expect(noscriptFinding(history([op(0, 0, 'CLUSTERDOWN'), op(0, 10, 'CLUSTERDOWN')]))).toBeUndefined();
  });
});
