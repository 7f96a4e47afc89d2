import { describe, expect, it } from 'vitest';
import { ClusterUsageError } from '../../../src/cluster/errors.ts';
import { externalClusterOptions, namespacePrefix, parseSeeds, redact } from '../../../src/cluster/external.ts';

/** The message of what `fn` throws, asserting it is a one-line ClusterUsageError. */
function usageError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ClusterUsageError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a ClusterUsageError, nothing was thrown');
}

describe('parseSeeds', () => {
  it('reads one or many host:port seeds, in the order given', () => {
    expect(parseSeeds('redis://127.0.0.1:7000')).toEqual({
      seeds: [{ host: '127.0.0.1', port: 7000 }],
      tls: false,
      username: undefined,
      password: undefined,
    });
    expect(parseSeeds('redis://a.example:7000,b-2:7001, 10.0.0.3:7002').seeds).toEqual([
      { host: 'a.example', port: 7000 },
      { host: 'b-2', port: 7001 },
      { host: '10.0.0.3', port: 7002 },
    ]);
  });

  it('accepts a repeated scheme, IPv6 brackets, a default port, database 0 and rediss for TLS', () => {
    expect(parseSeeds('redis://a:1,redis://b:2').seeds).toEqual([
      { host: 'a', port: 1 },
      { host: 'b', port: 2 },
    ]);
    expect(parseSeeds('redis://[::1]:7000').seeds).toEqual([{ host: '::1', port: 7000 }]);
    expect(parseSeeds('redis://cache').seeds).toEqual([{ host: 'cache', port: 6379 }]);
    expect(parseSeeds('redis://a:1/0').seeds).toEqual([{ host: 'a', port: 1 }]);
    expect(parseSeeds('REDISS://a:1').tls).toBe(true);
  });

  it('reads percent-encoded credentials before the first host', () => {
    expect(parseSeeds('redis://alice:p%40ss@a:1,b:2')).toMatchObject({
      username: 'alice',
      password: 'p@ss',
      seeds: [{ host: 'a' }, { host: 'b' }],
    });
    expect(parseSeeds('redis://:secret@a:1')).toMatchObject({ username: undefined, password: 'secret' });
  });

  it('names the bad part in one line', () => {
    expect(usageError(() => parseSeeds('127.0.0.1:7000'))).toMatch(
      /^seeds: missing redis:\/\/ or rediss:\/\/ scheme in '127\.0\.0\.1:7000' \(expected redis:\/\/host:port/,
    );
    expect(usageError(() => parseSeeds('redis://a:1,b:port'))).toMatch(/bad port 'port' of 'b:port'/);
    expect(usageError(() => parseSeeds('redis://a:0'))).toMatch(/bad port '0'/);
    expect(usageError(() => parseSeeds('redis://a:65536'))).toMatch(/bad port '65536'/);
    expect(usageError(() => parseSeeds('redis://a:1,,b:2'))).toMatch(/empty seed/);
    expect(usageError(() => parseSeeds('redis://'))).toMatch(/empty seed/);
    expect(usageError(() => parseSeeds('redis://a b:1'))).toMatch(/bad host 'a b:1'/);
    expect(usageError(() => parseSeeds('redis://a:1/3'))).toMatch(
      /unsupported '\/3' \(Redis Cluster has only database 0/,
    );
    expect(usageError(() => parseSeeds('redis://a:1,rediss://b:2'))).toMatch(/mixed redis:\/\/ and rediss:\/\//);
    expect(usageError(() => parseSeeds('redis://a:1,u:p@b:2'))).toMatch(/credentials may only precede the first host/);
    expect(usageError(() => parseSeeds('http://a:1', '--cluster'))).toMatch(/^--cluster: /);
  });

  it('never echoes a password in an error', () => {
    const message = usageError(() => parseSeeds('redis://u:hunter2@a:notaport'));
    expect(message).not.toContain('hunter2');
    expect(message).toContain("'redis://***@a:notaport'");
    expect(redact('redis://u:p/w@a:1,b:2')).toBe('redis://***@a:1,b:2');
  });
});

describe('externalClusterOptions', () => {
  it('defaults to non-destructive, no TLS, no natMap', () => {
    expect(externalClusterOptions({ seeds: 'redis://a:1' })).toEqual({
      seeds: [{ host: 'a', port: 1 }],
      seedSpec: 'redis://a:1',
      auth: { username: undefined, password: undefined, tls: undefined },
      allowDestructive: false,
      natMap: {},
      readyTimeoutMs: 30_000,
    });
  });

  it('passes credentials and TLS through, from the URL or the options', () => {
    expect(externalClusterOptions({ seeds: 'rediss://u:p@a:1' }).auth).toEqual({
      username: 'u',
      password: 'p',
      tls: {},
    });
    expect(
      externalClusterOptions({ seeds: 'redis://a:1', username: 'u', password: 'p', tls: { servername: 'x' } }).auth,
    ).toEqual({
      username: 'u',
      password: 'p',
      tls: { servername: 'x' },
    });
    expect(externalClusterOptions({ seeds: 'redis://a:1', tls: true }).auth.tls).toEqual({});
  });

  it('rejects bad options naming them', () => {
    expect(usageError(() => externalClusterOptions({ seeds: 'redis://a:1', allowDestructve: true } as never))).toMatch(
      /unknown option 'allowDestructve'/,
    );
    expect(usageError(() => externalClusterOptions({ seeds: 7 } as never))).toMatch(/seeds must be a string/);
    expect(
      usageError(() => externalClusterOptions({ seeds: 'redis://a:1', allowDestructive: 'yes' } as never)),
    ).toMatch(/allowDestructive must be a boolean/);
    expect(usageError(() => externalClusterOptions({ seeds: 'rediss://a:1', tls: false }))).toMatch(
      /tls: false contradicts/,
    );
    expect(usageError(() => externalClusterOptions({ seeds: 'redis://u:p@a:1', password: 'q' }))).toMatch(
      /password given both in seeds and as an option/,
    );
    expect(
      usageError(() => externalClusterOptions({ seeds: 'redis://a:1', natMap: { 'x:1': { host: 'h' } } as never })),
    ).toMatch(/natMap\['x:1'\]/);
    expect(usageError(() => externalClusterOptions({ seeds: 'redis://a:1', readyTimeoutMs: 0 }))).toMatch(
      /readyTimeoutMs must be an integer/,
    );
  });
});

describe('namespacePrefix', () => {
  it('prefixes outside any hash tag, so keys keep their slots', () => {
    expect(namespacePrefix('run-42_a.b')).toBe('chaoslua:run-42_a.b:');
  });

  it('rejects run ids that would change slots or act as SCAN glob patterns', () => {
    for (const bad of ['', 'a*b', 'a?b', '[ab]', '{tag}', 'a:b', 'x'.repeat(65)]) {
      expect(
        usageError(() => namespacePrefix(bad)),
        bad,
      ).toMatch(/runId must be 1-64 of \[A-Za-z0-9_.-\]/);
    }
  });
});
