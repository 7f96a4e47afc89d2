/** The Subject adapters, the script runtime the reference clients run on, and its metrics. The reference clients themselves live with their patterns (src/patterns/<name>). */
export type { Subject } from './types.ts';
export { createReferenceSubject } from './reference.ts';
export type { ReferencePattern, ReferenceSubject, ReferenceSubjectOptions } from './reference.ts';
export { EvalshaRunner, FcallRunner } from './scripts.ts';
export type { ScriptArg, ScriptMode, ScriptObserver, ScriptRunner } from './scripts.ts';
export { openScriptRunner } from './open-runner.ts';
export { loadScriptDir, scriptFromBody, sha1Hex, MissingScriptError } from './script-source.ts';
export type { ScriptSource } from './script-source.ts';
export { NoScriptAfterReloadError, FunctionNotLoadedError, ScriptLoadError, ScriptDigestMismatchError } from './script-errors.ts';
export { UnexpectedReplyError } from './replies.ts';
export { ScriptMetrics } from './metrics.ts';
export { keySlot } from './key-slot.ts';
export { projectScriptsDir } from './paths.ts';
