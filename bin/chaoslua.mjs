#!/usr/bin/env node
// The published entry point: runs the TypeScript sources through tsx's loader, so
// `npx chaoslua` needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
