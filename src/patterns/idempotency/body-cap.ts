/** The seed's cap on a stored response body: larger payloads belong elsewhere, with a pointer stored instead. */
export const MAX_BODY_BYTES = 64 * 1024;

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(
    readonly bytes: number,
    readonly cap: number = MAX_BODY_BYTES,
  ) {
    super(
      `response body is ${bytes} bytes, over the ${cap}-byte (${cap / 1024} KiB) cap on stored responses: store a pointer to it instead`,
    );
  }
}

/** Size in bytes as Redis will store it (UTF-8 for strings). */
export function bodyBytes(body: string | Uint8Array): number {
  return typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.byteLength;
}

/** Throws BodyTooLargeError when the body exceeds the cap; returns its size otherwise. */
export function checkBodySize(body: string | Uint8Array, cap: number = MAX_BODY_BYTES): number {
  const bytes = bodyBytes(body);
  if (bytes > cap) throw new BodyTooLargeError(bytes, cap);
  return bytes;
}
