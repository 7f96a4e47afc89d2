import { defineFault } from './types.ts';

/**
 * Faults of the clients themselves: a lease runs out under its holder. The patterns' sessions draw
 * them as steps of a client (src/generator/sessions/common.ts outliveLease, a rate limiter's wait),
 * and the runner plays them; nothing in the cluster changes, so they run on any cluster.
 */
export const leaseExpiry = defineFault({
  name: 'lease-expiry',
  description: 'a client waits past its lease (or window) before its next step',
  backends: 'any',
  external: 'client',
  draw: { lane: 'sessions' },
});

export const clientFreeze = defineFault({
  name: 'client-freeze',
  description: 'a client stalls past its lease (GC pause, stuck worker), then resumes with its old token',
  backends: 'any',
  external: 'client',
  recordedAs: 'client-freeze',
  draw: { lane: 'sessions' },
});
