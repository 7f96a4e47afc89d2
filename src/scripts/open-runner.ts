import type { Cluster as IORedisCluster } from 'ioredis';
import { loadScriptDir } from './source.ts';
import { EvalshaRunner, FcallRunner, type ScriptMode, type ScriptObserver, type ScriptRunner } from './runner.ts';

/** Where a client's scripts live and how to call them. */
export interface RunnerSpec {
  /** Directory of `<name>.lua` files (evalsha) or holding `library.lua` (fcall). */
  readonly dir: string;
  readonly names: readonly string[];
  readonly mode: ScriptMode;
  /** FCALL function name = `<prefix>_<script name>`, e.g. idem_register_or_get. */
  readonly functionPrefix: string;
}

/** The Functions library file in a scripts directory: `library.lua`. */
export const LIBRARY_NAME = 'library';

/** Read the scripts, build the runner and load everything on every master (compile errors surface here). */
export async function openScriptRunner(redis: IORedisCluster, spec: RunnerSpec, observer: ScriptObserver): Promise<ScriptRunner> {
  const runner = spec.mode === 'fcall' ? fcallRunner(redis, spec, observer) : new EvalshaRunner(redis, loadScriptDir(spec.dir, spec.names).values(), observer);
  await runner.prepare();
  return runner;
}

function fcallRunner(redis: IORedisCluster, spec: RunnerSpec, observer: ScriptObserver): FcallRunner {
  const library = loadScriptDir(spec.dir, [LIBRARY_NAME]).get(LIBRARY_NAME)!;
  return new FcallRunner(redis, library, new Map(spec.names.map((n) => [n, `${spec.functionPrefix}_${n}`])), observer);
}
