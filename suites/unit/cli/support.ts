import { expect, vi } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { ComposeCluster } from '../../../src/cluster/compose.ts';
import { EnvironmentError } from '../../../src/cluster/errors.ts';
import { ExternalCluster } from '../../../src/cluster/external.ts';
import { LocalCluster } from '../../../src/cluster/local.ts';
import { SentinelCluster } from '../../../src/cluster/sentinel.ts';

/**
 * Every way a command starts or reaches a cluster, replaced by a counter that refuses: a test of
 * bad input asserts that none was reached (the input was rejected before any cluster started).
 */
export function forbidClusters() {
  const attempts: string[] = [];
  const refuse = (kind: string) => async () => {
    attempts.push(kind);
    throw new EnvironmentError(`test: a ${kind} cluster was about to start`);
  };
  vi.spyOn(LocalCluster, 'start').mockImplementation(refuse('local'));
  vi.spyOn(ComposeCluster, 'start').mockImplementation(refuse('compose'));
  vi.spyOn(ExternalCluster, 'connect').mockImplementation(refuse('external'));
  vi.spyOn(SentinelCluster, 'start').mockImplementation(refuse('sentinel'));
  return attempts;
}

/** The CLI in-process, with its output captured. */
export async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/** A stack trace's frame line ("    at fn (file:1:2)"). */
export const STACK_FRAME = /^\s+at .+[:)]/m;

/**
 * A usage error as every bad input must end: the message, exit 2, one line, no stack trace, and no
 * cluster reached (`attempts`: what forbidClusters counted). Returns the CLI's result.
 */
export async function expectUsage(argv: string[], message: RegExp, attempts: readonly string[]) {
  const r = await cli(argv);
  expect(r.stderr).toMatch(message);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(STACK_FRAME);
  expect(attempts).toEqual([]);
  return r;
}
