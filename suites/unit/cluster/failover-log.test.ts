/**
 * A failover that never completes says why from the servers' own logs: the replica's last election
 * line first, then each other node's (a master's refusal to vote is only written there).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { electionLines, type FailoverNode } from '../../../src/cluster/failover.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaoslua-failover-log-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function node(index: number, lines?: string[]): FailoverNode {
  const logFile = lines ? path.join(dir, `n${index}.log`) : undefined;
  if (logFile && lines) fs.writeFileSync(logFile, `${lines.join('\n')}\n`);
  const at = `127.0.0.1:${7000 + index}`;
  return { ref: { index, name: `n${index}`, announced: at, client: at, direct: at }, status: 'running', logFile };
}

describe('electionLines', () => {
  it("gives each node's last election line, the replica's first, without Redis's prefix", () => {
    const replica = node(3, [
      '901:S 07 Dec 2026 06:22:01.120 * Manual failover user request accepted.',
      '901:S 07 Dec 2026 06:22:01.300 * Background saving started by pid 977',
      '901:S 07 Dec 2026 06:22:06.121 # Manual failover timed out.',
      '901:S 07 Dec 2026 06:22:06.500 * Ready to accept connections tcp',
    ]);
    const master = node(1, [
      "812:M 07 Dec 2026 06:22:02.001 # Failover auth denied to 3f2a: can't vote about this master before 8011 milliseconds",
    ]);
    const quiet = node(0, ['700:M 07 Dec 2026 06:20:00.000 * Ready to accept connections tcp']);
    expect(electionLines([replica, quiet, replica, master])).toEqual([
      'n3 log: Manual failover timed out.',
      "n1 log: Failover auth denied to 3f2a: can't vote about this master before 8011 milliseconds",
    ]);
  });

  it('skips a node with no log kept or a log not written', () => {
    const unwritten: FailoverNode = { ...node(5), logFile: path.join(dir, 'absent.log') };
    expect(electionLines([node(4), unwritten])).toEqual([]);
  });
});
