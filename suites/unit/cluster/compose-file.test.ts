import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMPOSE_LAYOUT as L, DEFAULT_COMPOSE_FILE, composeClusterOptions } from '../../../src/cluster/compose.ts';
import { ClusterUsageError } from '../../../src/cluster/errors.ts';
import { parseYaml, type Yaml } from './yaml-subset.ts';

type Obj = { [key: string]: Yaml };
const obj = (v: Yaml | undefined): Obj => {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new Error(`expected a map, got ${JSON.stringify(v)}`);
  return v;
};
const list = (v: Yaml | undefined): Yaml[] => {
  if (!Array.isArray(v)) throw new Error(`expected a list, got ${JSON.stringify(v)}`);
  return v;
};
/** A service's command as one shell string, whichever form it is written in. */
const commandText = (service: Obj): string =>
  Array.isArray(service.command) ? service.command.join(' ') : String(service.command);

const file = obj(parseYaml(fs.readFileSync(DEFAULT_COMPOSE_FILE, 'utf8')));
const services = obj(file.services);
const redisNames = Array.from({ length: L.nodes }, (_, i) => L.redisService(i));
const toxiproxy = obj(services[L.toxiproxyService]);
const configTarget = obj(list(toxiproxy.configs)[0]);
const proxies = JSON.parse(String(obj(obj(file.configs)[String(configTarget.source)]).content)) as {
  name: string;
  listen: string;
  upstream: string;
  enabled: boolean;
}[];
const proxy = (name: string) => proxies.find((p) => p.name === name);
/** "127.0.0.1::8000" -> container port 8000, or throws on a form that binds more than loopback. */
const published = (service: Obj) =>
  list(service.ports ?? []).map((p) => {
    const m = /^127\.0\.0\.1::(\d+)$/.exec(String(p));
    if (!m) throw new Error(`port '${String(p)}' is not published on 127.0.0.1 only`);
    return Number(m[1]);
  });

describe('docker-compose.cluster.yml', () => {
  it('has exactly toxiproxy, six redis nodes and the one-shot create service', () => {
    expect(Object.keys(services).sort()).toEqual([L.createService, ...redisNames, L.toxiproxyService].sort());
  });

  it('takes its images as a setting whose defaults are the official images, the same for every redis service', () => {
    // A team with a registry runs the file as written; scripts/docker-engine.sh sets the two variables
    // to the images it builds from the packaged servers.
    const setting = (name: string, fallback: string) => `$${'{'}${name}:-${fallback}}`;
    expect(toxiproxy.image).toBe(setting('CHAOSLUA_TOXIPROXY_IMAGE', 'ghcr.io/shopify/toxiproxy:2.12.0'));
    for (const name of [...redisNames, L.createService])
      expect(String(obj(services[name]).image), name).toBe(setting('CHAOSLUA_REDIS_IMAGE', 'redis:7'));
  });

  it('runs every redis node in cluster mode, persistence off, with a short node timeout', () => {
    for (const name of redisNames) {
      const cmd = commandText(obj(services[name]));
      expect(cmd, name).toContain('--cluster-enabled yes');
      expect(cmd, name).toContain('--save ""');
      expect(cmd, name).toContain('--appendonly no');
      expect(cmd, name).toMatch(/--cluster-node-timeout \$\{CHAOSLUA_NODE_TIMEOUT_MS:-1000\}/);
      expect(cmd, name).toContain(`--port ${L.redisPort}`);
    }
  });

  it("makes every redis node announce toxiproxy's address and its own internal proxy ports", () => {
    redisNames.forEach((name, i) => {
      const cmd = commandText(obj(services[name]));
      expect(cmd, name).toMatch(/ip=\$\$\(getent hosts toxiproxy /);
      expect(cmd, name).toContain('--cluster-announce-ip "$$ip"');
      expect(cmd, name).toContain(`--cluster-announce-port ${L.internalPort(i)} `);
      expect(cmd, name).toMatch(new RegExp(`--cluster-announce-bus-port ${L.busPort(i)}$`));
      expect(list(obj(services[name]).depends_on)).toContain(L.toxiproxyService);
    });
  });

  it('configures three proxies per node, each in front of the right port of the right node', () => {
    expect(String(toxiproxy.command)).toContain(`-config=${String(configTarget.target)}`);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the compose file's own variable, left for docker compose to fill in
    expect(String(toxiproxy.command)).toContain('-seed=${CHAOSLUA_SEED:-1}');
    redisNames.forEach((name, i) => {
      expect(proxy(`n${i}-internal`)).toEqual({
        name: `n${i}-internal`,
        listen: `0.0.0.0:${L.internalPort(i)}`,
        upstream: `${name}:${L.redisPort}`,
        enabled: true,
      });
      expect(proxy(`n${i}-bus`)).toEqual({
        name: `n${i}-bus`,
        listen: `0.0.0.0:${L.busPort(i)}`,
        upstream: `${name}:${L.redisBusPort}`,
        enabled: true,
      });
      expect(proxy(`n${i}-client`)).toEqual({
        name: `n${i}-client`,
        listen: `0.0.0.0:${L.clientPort(i)}`,
        upstream: `${name}:${L.redisPort}`,
        enabled: true,
      });
    });
    expect(proxies).toHaveLength(3 * L.nodes);
    expect(new Set(proxies.map((p) => p.listen)).size).toBe(proxies.length);
  });

  it('publishes the client proxies, the Toxiproxy API and each node (control plane) on loopback only', () => {
    expect(published(toxiproxy).sort()).toEqual([L.apiPort, ...redisNames.map((_, i) => L.clientPort(i))].sort());
    for (const name of redisNames) expect(published(obj(services[name]))).toEqual([L.redisPort]);
    // The announced (internal) proxies must stay inside: clients reach them only through natMap.
    for (const i of redisNames.keys()) expect(published(toxiproxy)).not.toContain(L.internalPort(i));
    expect(published(obj(services[L.createService]))).toEqual([]);
  });

  it('forms the cluster once, on the announced addresses, with one replica per master', () => {
    const create = obj(services[L.createService]);
    const cmd = commandText(create);
    expect(cmd).toMatch(
      /redis-cli --cluster create "\$\$ip:7000" "\$\$ip:7001" "\$\$ip:7002" "\$\$ip:7003" "\$\$ip:7004" "\$\$ip:7005"/,
    );
    expect(cmd).toContain('--cluster-replicas 1');
    expect(cmd).toContain('--cluster-yes');
    expect(redisNames.map((_, i) => `$$ip:${L.internalPort(i)}`).every((a) => cmd.includes(a))).toBe(true);
    expect(list(create.depends_on).sort()).toEqual([...redisNames].sort());
    expect(create.restart).toBe('no');
  });
});

describe('composeClusterOptions', () => {
  it('fills defaults and rejects bad values naming the option', () => {
    expect(composeClusterOptions()).toMatchObject({ seed: 1, nodeTimeoutMs: 1000, composeFile: DEFAULT_COMPOSE_FILE });
    expect(() => composeClusterOptions({ seed: -1 })).toThrow(/ComposeCluster\.start: seed must be an integer/);
    expect(() => composeClusterOptions({ nodeTimeoutMs: 1.5 })).toThrow(/nodeTimeoutMs/);
    expect(() => composeClusterOptions({ composeFile: '/nonexistent/compose.yml' })).toThrow(
      /composeFile \/nonexistent\/compose\.yml does not exist/,
    );
    expect(() => composeClusterOptions({ masters: 5 } as never)).toThrow(ClusterUsageError);
  });
});
