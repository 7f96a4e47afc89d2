/**
 * The points of Porcupine's etcd log format that decide verdicts: `:fail :cas` ran and answered
 * false; `:info` stays open; `:fail :read :timed-out` is a read with unknown outcome.
 */
import { describe, expect, it } from 'vitest';
import { cli, tempFile } from './support.ts';

const log = (...lines: string[]) => tempFile('h.log', lines.map((l) => `INFO  jepsen.util - ${l}`).join('\n') + '\n');

async function verdict(file: string): Promise<string> {
  const { stdout } = await cli('check', file, '--no-report', '--json');
  return (JSON.parse(stdout) as { verdict: string }).verdict;
}

describe('porcupine-etcd', () => {
  it('reads :fail :cas as a cas that ran and answered false: illegal when the compare must have matched', async () => {
    const file = log('0\t:invoke\t:write\t1', '0\t:ok\t:write\t1', '1\t:invoke\t:cas\t[1 3]', '1\t:fail\t:cas\t[1 3]');
    expect(await verdict(file)).toBe('illegal');
  });

  it('reads :fail :cas as answering false: legal when the register held another value', async () => {
    const file = log(
      '0\t:invoke\t:write\t1',
      '0\t:ok\t:write\t1',
      '1\t:invoke\t:cas\t[2 3]',
      '1\t:fail\t:cas\t[2 3]',
      '0\t:invoke\t:read\tnil',
      '0\t:ok\t:read\t1',
    );
    expect(await verdict(file)).toBe('ok');
  });

  it('keeps an :info write open: a later read may see it, or not', async () => {
    const seen = log(
      '0\t:invoke\t:write\t2',
      '0\t:info\t:write\t:timed-out',
      '1\t:invoke\t:read\tnil',
      '1\t:ok\t:read\t2',
    );
    const unseen = log(
      '0\t:invoke\t:write\t2',
      '0\t:info\t:write\t:timed-out',
      '1\t:invoke\t:read\tnil',
      '1\t:ok\t:read\tnil',
    );
    expect(await verdict(seen)).toBe('ok');
    expect(await verdict(unseen)).toBe('ok');
  });

  it('still requires a value somebody wrote: a read of a value never written is illegal', async () => {
    const file = log(
      '0\t:invoke\t:write\t2',
      '0\t:info\t:write\t:timed-out',
      '1\t:invoke\t:read\tnil',
      '1\t:ok\t:read\t7',
    );
    expect(await verdict(file)).toBe('illegal');
  });

  it('reads :fail :read :timed-out as a read whose outcome is unknown, which constrains nothing', async () => {
    const file = log(
      '0\t:invoke\t:write\t1',
      '0\t:ok\t:write\t1',
      '1\t:invoke\t:read\tnil',
      '1\t:fail\t:read\t:timed-out',
      '1\t:invoke\t:read\tnil',
      '1\t:ok\t:read\t1',
    );
    expect(await verdict(file)).toBe('ok');
  });

  it('orders by lines: a read after a completed write must see it', async () => {
    const file = log('0\t:invoke\t:write\t1', '0\t:ok\t:write\t1', '1\t:invoke\t:read\tnil', '1\t:ok\t:read\tnil');
    expect(await verdict(file)).toBe('illegal');
  });
});

describe('malformed input', () => {
  it('names file, line and what was expected, exit 2', async () => {
    const file = log('0\t:invoke\t:write\t1', '0\t:ok\t:write\tone');
    const { code, stderr } = await cli('check', file, '--no-report');
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/h\.log:2: expected "INFO {2}jepsen\.util - <process> :<invoke\|ok\|fail\|info>/);
  });

  it('refuses a completion with no open invocation', async () => {
    const { code, stderr } = await cli('check', log('3\t:ok\t:read\t1'), '--no-report');
    expect(code).toBe(2);
    expect(stderr).toMatch(/h\.log:1: :ok for process 3, which has no open :invoke/);
  });

  it('refuses a second invocation by a process whose operation is open', async () => {
    const { code, stderr } = await cli('check', log('0\t:invoke\t:read\tnil', '0\t:invoke\t:read\tnil'), '--no-report');
    expect(code).toBe(2);
    expect(stderr).toMatch(/h\.log:2: process 0 invokes again while its operation from line 1 is still open/);
  });

  it('refuses an EDN history with a broken map, naming its line', async () => {
    const file = tempFile(
      'h.edn',
      '{:process 0, :type :invoke, :f :read, :value nil}\n{:process 0, :type :ok, :f :read, :value 1\n',
    );
    const { code, stderr } = await cli('check', file, '--model', 'register', '--no-report');
    expect(code).toBe(2);
    expect(stderr).toMatch(/h\.edn:2: EDN: expected '}' to close the form opened on this line/);
  });

  it('asks for --model when the format does not imply one, and names the models', async () => {
    const file = tempFile('h.edn', '{:process 0, :type :invoke, :f :read, :value nil}\n');
    const { code, stderr } = await cli('check', file, '--no-report');
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /--model is required for the jepsen format \(one of idempotency, lock, ratelimit, semaphore, gcra, register, kv\)/,
    );
  });

  it('refuses a file whose format it cannot tell, and an unknown --format', async () => {
    expect((await cli('check', tempFile('h.txt', 'hello\n'), '--no-report')).stderr).toMatch(
      /cannot tell the format from its first line/,
    );
    const named = await cli('check', tempFile('h.txt', 'hello\n'), '--format', 'csv');
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/--format must be one of chaoslua, jepsen, porcupine-etcd, porcupine-kv, got 'csv'/);
  });
});
