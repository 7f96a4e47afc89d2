/** The script runtime the reference clients run on: loading scripts, calling them on the right node, and their metrics. */
export { EvalshaRunner, FcallRunner } from './runner.ts';
export type { ScriptArg, ScriptMode, ScriptObserver, ScriptRunner } from './runner.ts';
export { openScriptRunner } from './open-runner.ts';
export { loadScriptDir, scriptFromBody, sha1Hex, MissingScriptError } from './source.ts';
export type { ScriptSource } from './source.ts';
export {
  NoScriptAfterReloadError,
  FunctionNotLoadedError,
  ScriptLoadError,
  ScriptDigestMismatchError,
} from './errors.ts';
export { UnexpectedReplyError } from './replies.ts';
export { ScriptMetrics } from './metrics.ts';
export { projectScriptsDir } from './paths.ts';
