/**
 * eval-shebang: an EVAL script that may write and has no `#!lua` first line is one a replica runs
 * for a READONLY connection (bench/replica-eval.ts: reads served stale, the write refused at its
 * line); with the line the replica redirects it. Advice: never a refusal, never exit 1.
 */
import { describe, expect, it } from 'vitest';
import { lintSource } from '../../../src/lint/index.ts';

const shebangFindings = (lines: string[]) =>
  lintSource(lines.join('\n'), 'x.lua')
    .filter((f) => f.rule === 'eval-shebang')
    .map((f) => `${f.severity}@${f.line}:${f.column}`);

describe('eval-shebang', () => {
  it('flags a writing script without the line, once, at its first write', () => {
    const script = [
      "local v = redis.call('GET', KEYS[1])",
      'if v == ARGV[1] then',
      "  redis.call('DEL', KEYS[1])",
      "  redis.call('DEL', KEYS[1])",
      'end',
      'return v',
    ];
    expect(shebangFindings(script)).toEqual(['advice@3:3']);
    const [finding] = lintSource(script.join('\n'), 'x.lua').filter((f) => f.rule === 'eval-shebang');
    expect(finding.message).toMatch(/^DEL may write .* start it with '#!lua'/);
  });

  it('flags a command named at run time, which may write', () => {
    expect(shebangFindings(['return redis.call(ARGV[1], KEYS[1])'])).toEqual(['advice@1:8']);
  });

  it('accepts the same script with #!lua, with flags or not', () => {
    expect(shebangFindings(['#!lua', "redis.call('SET', KEYS[1], ARGV[1])"])).toEqual([]);
    expect(shebangFindings(['#!lua flags=allow-oom', "redis.call('SET', KEYS[1], ARGV[1])"])).toEqual([]);
  });

  it('leaves a read-only script alone: a replica may answer it', () => {
    expect(
      shebangFindings([
        "local v = redis.call('GET', KEYS[1])",
        "return {v, redis.call('PTTL', KEYS[1]), redis.call('HGETALL', KEYS[2])}",
      ]),
    ).toEqual([]);
  });

  it('leaves a Functions library alone: its functions carry their own flags', () => {
    expect(
      shebangFindings([
        '#!lua name=lib',
        "redis.register_function('w', function(keys) return redis.call('SET', keys[1], 1) end)",
      ]),
    ).toEqual([]);
    expect(
      shebangFindings(["redis.register_function('w', function(keys) return redis.call('SET', keys[1], 1) end)"]),
    ).toEqual([]);
  });
});
