#!/usr/bin/env node
// The published entry point: runs the TypeScript sources through tsx's loader, so
// `npx chaoslua` needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main, internalError } = await import('../src/cli/main.ts');
// An error nothing awaited (a stray rejection, an emitter's error event) gets the same one line as
// any other internal error, never a stack trace; the cluster's exit hooks still clean up.
const debug = process.argv.includes('--debug') || process.env.CHAOSLUA_DEBUG === '1';
const stray = (error) => {
  process.exitCode = internalError(process.argv[2] ?? 'chaoslua', error, debug, { stdout: process.stdout, stderr: process.stderr });
  process.exit();
};
process.on('uncaughtException', stray);
process.on('unhandledRejection', stray);
process.exitCode = await main(process.argv.slice(2));
