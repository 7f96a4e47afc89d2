#!/usr/bin/env node
// The entry point. An installed package runs its compiled JavaScript (dist/, built by `npm pack`),
// with no TypeScript loader; a checkout, which has the sources beside this file, runs them through
// tsx, so what runs is always what is checked out (no build step, nothing stale).
import { existsSync } from 'node:fs';

const checkout = existsSync(new URL('../src/cli/main.ts', import.meta.url));
if (checkout) (await import('tsx/esm/api')).register();
const { main, internalError } = await import(checkout ? '../src/cli/main.ts' : '../dist/src/cli/main.js');
// An error nothing awaited (a stray rejection, an emitter's error event) gets the same one line as
// any other internal error, never a stack trace; the cluster's exit hooks still clean up.
const debug = process.argv.includes('--debug') || process.env.CHAOSLUA_DEBUG === '1';
const stray = (error) => {
  process.exitCode = internalError(process.argv[2] ?? 'chaoslua', error, debug, {
    stdout: process.stdout,
    stderr: process.stderr,
  });
  process.exit();
};
process.on('uncaughtException', stray);
process.on('unhandledRejection', stray);
process.exitCode = await main(process.argv.slice(2));
