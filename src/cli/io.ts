import type { Io } from '../certify/types.ts';

export type { Io };

export const processIo: Io = { stdout: process.stdout, stderr: process.stderr };

/** A command of the CLI: `chaoslua <name> ...argv`. */
export interface Command {
  readonly summary: string;
  run(argv: string[], io?: Io): Promise<number>;
}
