import type { Cluster as IORedisCluster } from 'ioredis';
import { projectScriptsDir } from './paths.ts';
import { loadScriptDir } from './source.ts';
import { EvalshaRunner, FcallRunner, type ScriptMode, type ScriptObserver, type ScriptRunner } from './runner.ts';
import { knownKeys, nonEmptyString, oneOf } from './validate.ts';

/** Where a client's scripts live and how to call them. */
export interface RunnerSpec {
  /** Directory of `<name>.lua` files (evalsha) or holding `library.lua` (fcall). */
  readonly dir: string;
  readonly names: readonly string[];
  readonly mode: ScriptMode;
  /** FCALL function name = `<prefix>_<script name>`, e.g. idem_register_or_get. */
  readonly functionPrefix: string;
}

/**
 * The check every reference client's open() starts with: no option outside `known`, `mode` 'evalsha'
 * (the default) or 'fcall', `scriptsDir` a non-empty string (default: the project's lua/<pattern>).
 * Each message names `where`, the client.
 */
export function scriptOptions(
  where: string,
  options: { readonly scriptsDir?: string; readonly mode?: ScriptMode },
  known: readonly string[],
  pattern: string,
): Pick<RunnerSpec, 'dir' | 'mode'> {
  knownKeys(where, options, known);
  const mode = oneOf(where, 'mode', options.mode ?? 'evalsha', ['evalsha', 'fcall']);
  return { mode, dir: nonEmptyString(where, 'scriptsDir', options.scriptsDir ?? projectScriptsDir(pattern)) };
}

/** The Functions library file in a scripts directory: `library.lua`. */
export const LIBRARY_NAME = 'library';

/** Read the scripts, build the runner and load everything on every master (compile errors surface here). */
export async function openScriptRunner(
  redis: IORedisCluster,
  spec: RunnerSpec,
  observer: ScriptObserver,
): Promise<ScriptRunner> {
  const runner =
    spec.mode === 'fcall'
      ? fcallRunner(redis, spec, observer)
      : new EvalshaRunner(redis, loadScriptDir(spec.dir, spec.names).values(), observer);
  await runner.prepare();
  return runner;
}

function fcallRunner(redis: IORedisCluster, spec: RunnerSpec, observer: ScriptObserver): FcallRunner {
  const library = loadScriptDir(spec.dir, [LIBRARY_NAME]).get(LIBRARY_NAME)!;
  return new FcallRunner(redis, library, new Map(spec.names.map((n) => [n, `${spec.functionPrefix}_${n}`])), observer);
}
