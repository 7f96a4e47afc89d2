import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './binaries.ts';
import { EnvironmentError } from './errors.ts';

export type DockerStatus = { readonly available: true } | { readonly available: false; readonly reason: string };

/** The compose backend cannot run: a visible skip in tests, exit 3 in the CLI. */
export class DockerUnavailableError extends EnvironmentError {}

/** The one line printed when the compose backend is skipped. */
export function dockerSkipMessage(reason: string): string {
  return `compose backend skipped: no Docker engine answers (${reason})`;
}

const PROBE_TIMEOUT_MS = 3_000;
let cached: Promise<DockerStatus> | undefined;

/**
 * Whether a Docker engine answers, found the way testcontainers finds it (DOCKER_HOST,
 * ~/.testcontainers.properties, the default and rootless sockets), so "available" means exactly
 * "DockerComposeEnvironment can use it". Bounded by a timeout because a DOCKER_HOST that points
 * at a black hole would otherwise hang the caller; cached because the answer will not change
 * within one run.
 */
export function dockerStatus(): Promise<DockerStatus> {
  cached ??= probe();
  return cached;
}

export async function dockerAvailable(): Promise<boolean> {
  return (await dockerStatus()).available;
}

/** Throws DockerUnavailableError (message: the skip line) when no engine answers. */
export async function requireDocker(): Promise<void> {
  const status = await dockerStatus();
  if (!status.available) throw new DockerUnavailableError(dockerSkipMessage(status.reason));
}

async function probe(): Promise<DockerStatus> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DockerStatus>((resolve) => {
    timer = setTimeout(
      () => resolve({ available: false, reason: `no answer within ${PROBE_TIMEOUT_MS} ms` }),
      PROBE_TIMEOUT_MS,
    );
    timer.unref();
  });
  const attempt = (async (): Promise<DockerStatus> => {
    try {
      // Imported lazily: testcontainers pulls in dockerode and friends, which local runs never need.
      const { getContainerRuntimeClient } = await import('testcontainers');
      const client = await getContainerRuntimeClient();
      if (!client.info.containerRuntime.serverVersion)
        return { available: false, reason: 'the engine reported no version' };
      // testcontainers drives compose through the `docker compose` plugin; an engine without it is no use here.
      const compose = await composeVersion();
      if (compose !== true)
        return { available: false, reason: `the engine answers but \`docker compose\` does not: ${compose}` };
      return { available: true };
    } catch (error) {
      return { available: false, reason: `${oneLine((error as Error).message)}; ${where()}` };
    }
  })();
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function composeVersion(): Promise<true | string> {
  return new Promise((resolve) => {
    execFile('docker', ['compose', 'version'], { timeout: PROBE_TIMEOUT_MS }, (error, _stdout, stderr) =>
      resolve(error ? oneLine(stderr || error.message) : true),
    );
  });
}

/** Where we looked, so the skip line tells the user what to fix. */
function where(): string {
  if (process.env.DOCKER_HOST) return `DOCKER_HOST=${process.env.DOCKER_HOST}`;
  if (fs.existsSync('/var/run/docker.sock')) return '/var/run/docker.sock exists but does not answer';
  // No engine at all: the way to run one for this command alone, images built here (docs/clusters.md).
  return `DOCKER_HOST unset, no /var/run/docker.sock; bash ${path.relative(process.cwd(), path.join(projectRoot, 'scripts/docker-engine.sh')) || '.'} run -- <this command> starts a private one`;
}

function oneLine(text: string): string {
  return text.split('\n')[0].trim().replace(/\.$/, '');
}
