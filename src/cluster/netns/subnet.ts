import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from '../alive.ts';
import { EnvironmentError } from '../errors.ts';
import { runSync } from './host.ts';

/** Where runs claim their /24s: tmpfs, so a reboot forgets every claim. */
const CLAIMS =
  process.env.CHAOSLUA_NETNS_CLAIMS ?? (fs.existsSync('/run') ? '/run/chaoslua-netns' : '/tmp/chaoslua-netns');
/** Runs take 10.238.N.0/24; one address per node and one for the bridge (the harness's side). */
const PREFIX = '10.238';

export interface Subnet {
  /** "10.238.N" */
  readonly base: string;
  /** The claim file; removed when the run is reaped. */
  readonly claim: string;
}

/**
 * A /24 no other run holds and no route of this host overlaps. Two runs at once must never share a
 * subnet (their bridges would both route it), so the claim is a file created with O_EXCL holding
 * the claimant's pid; a claim whose process is gone is taken over.
 */
export function claimSubnet(ip: string): Subnet {
  fs.mkdirSync(CLAIMS, { recursive: true });
  const routed = routedPrefixes(ip);
  const start = Math.floor(Math.random() * 256);
  for (let i = 0; i < 256; i++) {
    const n = (start + i) % 256;
    const base = `${PREFIX}.${n}`;
    if (routed.some((r) => overlaps(r, `${base}.0/24`))) continue;
    const claim = path.join(CLAIMS, `${base}.0`);
    if (take(claim)) return { base, claim };
  }
  throw new EnvironmentError(
    `--cluster netns: no free /24 in ${PREFIX}.0.0/16 (claims in ${CLAIMS}; every one held by a live run or routed)`,
  );
}

function take(claim: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(claim, String(process.pid), { flag: 'wx' });
      return true;
    } catch {
      const owner = Number(safeRead(claim));
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) return false;
      fs.rmSync(claim, { force: true }); // a dead run's claim
    }
  }
  return false;
}

function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function routedPrefixes(ip: string): string[] {
  return runSync(ip, ['-4', 'route', 'show', 'table', 'all'])
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0])
    .filter((p) => /^\d+\.\d+\.\d+\.\d+(\/\d+)?$/.test(p));
}

function toRange(cidr: string): [number, number] {
  const [addr, bits = '32'] = cidr.split('/');
  const value = addr.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
  const size = 2 ** (32 - Number(bits));
  const from = Math.floor(value / size) * size;
  return [from, from + size - 1];
}

export function overlaps(a: string, b: string): boolean {
  const [a0, a1] = toRange(a);
  const [b0, b1] = toRange(b);
  return a0 <= b1 && b0 <= a1;
}
