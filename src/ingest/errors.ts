/** Malformed input: one line naming the file, the line and what was expected there (exit 2). */
export class FormatError extends Error {
  override readonly name = 'FormatError';
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly expected: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${expected}`);
  }
}

/** The model to check against is missing, unknown, or not one the format can hold (exit 2). */
export class ModelChoiceError extends Error {
  override readonly name = 'ModelChoiceError';
}
