import fs from 'node:fs';
import { isAlive } from '../../src/cluster/alive.ts';
export { isAlive };
import { isPortFree } from '../../src/cluster/ports.ts';

export interface Leftovers {
  readonly pids: number[];
  readonly ports: number[];
  readonly dirExists: boolean;
}

/** What a harness left behind, polled until nothing is left or `timeoutMs` passes. */
export async function leftovers(pids: number[], ports: number[], dir: string, timeoutMs = 5_000): Promise<Leftovers> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isAlive);
    const busy: number[] = [];
    for (const port of ports) if (!(await isPortFree(port))) busy.push(port);
    const dirExists = fs.existsSync(dir);
    if ((alive.length === 0 && busy.length === 0 && !dirExists) || Date.now() > deadline) {
      return { pids: alive, ports: busy, dirExists };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
