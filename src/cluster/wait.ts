export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Poll `probe` until it returns true or `timeoutMs` passes; on timeout throw with the last reason
 * the probe gave, so a cluster that never becomes ready says why.
 */
export async function waitUntil(
  what: string,
  probe: () => Promise<true | string>,
  timeoutMs: number,
  intervalMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let reason = 'not checked yet';
  while (Date.now() < deadline) {
    try {
      const result = await probe();
      if (result === true) return;
      reason = result;
    } catch (error) {
      reason = (error as Error).message;
    }
    await sleep(intervalMs);
  }
  throw new Error(`${what} not reached within ${timeoutMs} ms: ${reason}`);
}
