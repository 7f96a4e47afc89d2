/** Where a command writes; tests pass their own. */
export interface Io {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

export const processIo: Io = { stdout: process.stdout, stderr: process.stderr };

/** A command of the CLI: `chaoslua <name> ...argv`. */
export interface Command {
  readonly summary: string;
  run(argv: string[], io?: Io): Promise<number>;
}
