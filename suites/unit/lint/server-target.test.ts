// Lint for the server a team runs: Redis 6.2's loader compiles no '#!' first line (measured: EVAL
// "#!lua\nreturn 1" answers "user_script:1: unexpected symbol near '#'" on 6.2.5), so there the line is
// an error, and the advice to add one is left out; chaoslua's own runner comments the line out, so
// for `certify --impl lua:DIR` it is advice for the team's own client. Without a target: Redis 7.
import { describe, expect, it } from 'vitest';
import { lintSource, lintTargetOf } from '../../../src/lint/index.ts';

const WRITE_WITH_SHEBANG = '#!lua\nreturn redis.call("SET", KEYS[1], ARGV[1])\n';
const WRITE_WITHOUT = 'return redis.call("SET", KEYS[1], ARGV[1])\n';
const REDIS_62 = lintTargetOf({ server: 'redis', version: '6.2.5', major: 6 });
const REDIS_74 = lintTargetOf({ server: 'redis', version: '7.4.1', major: 7 });

const rules = (source: string, target?: Parameters<typeof lintSource>[2]) =>
  lintSource(source, 'x.lua', target).map((f) => `${f.rule}:${f.severity}`);

describe('lint for a server', () => {
  it("refuses a '#!' first line on Redis 6.2, naming the server", () => {
    const [finding] = lintSource(WRITE_WITH_SHEBANG, 'x.lua', REDIS_62);
    expect(finding).toMatchObject({ rule: 'server-support', severity: 'error', line: 1, column: 1 });
    expect(finding.message).toMatch(/^redis 6\.2\.5 compiles no '#!' first line \(Redis 7\.0 added them\)/);
  });

  it("gives no advice to add '#!lua' where none compiles, and keeps it on Redis 7", () => {
    expect(rules(WRITE_WITHOUT, REDIS_62)).toEqual([]);
    expect(rules(WRITE_WITHOUT, REDIS_74)).toEqual(['eval-shebang:advice']);
    expect(rules(WRITE_WITHOUT)).toEqual(['eval-shebang:advice']);
    expect(rules(WRITE_WITH_SHEBANG, REDIS_74)).toEqual([]);
  });

  it("makes the line advice when chaoslua's runner runs the scripts (it sends the line as a comment)", () => {
    expect(rules(WRITE_WITH_SHEBANG, lintTargetOf({ server: 'redis', version: '6.2.5', major: 6 }, true))).toEqual([
      'server-support:advice',
    ]);
  });
});
