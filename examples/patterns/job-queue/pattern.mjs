// A job queue with visibility timeouts, as a team keeping it in Redis Lua would declare it for
// chaoslua: three operations, a model of a few pure functions, three named invariants. Every
// operation is one script on one key (KEYS[1], the whole queue), so a step is atomic and the model
// is a function of the queue's state and the operation's arguments.
//
// A claim leases the job to its worker for visibilityMs (on the server's clock); the lease is
// declared on the operation, so the checker lets it run out wherever the history's timing allows,
// and the model never reads a clock.
import { definePattern, arg, leaseEndRace, leasesOf } from 'chaoslua/pattern';

const JOBS = ['j1', 'j2', 'j3', 'j4'];

// The state: the jobs the queue knows, in enqueue order (the order claims serve them in), each
// { id, st: 'ready' | 'claimed' | 'acked' } and, while claimed, { worker, tag } where tag is the
// id of the claim whose lease it is. An expired claim is 'ready' again: expire() makes it so.
const find = (state, id) => state.jobs.find((j) => j.id === id);
const withJob = (state, id, job) => ({ jobs: state.jobs.map((j) => (j.id === id ? job : j)) });
const ready = (id) => ({ id, st: 'ready' });
const held = (job) => `${JSON.stringify(job.id)} (claimed by ${JSON.stringify(job.worker)})`;
const named = (observed) =>
  typeof observed === 'string' ? observed : Buffer.isBuffer(observed) ? observed.toString() : undefined;

export default definePattern({
  name: 'job-queue',
  description: 'a job queue with visibility timeouts: enqueue, claim (leased to a worker), ack',
  operations: {
    enqueue: { args: { job: arg.oneOf(JOBS) }, answer: '1 queued | 0 already known (queued, claimed or acked)' },
    claim: {
      args: { worker: arg.holder(), visibilityMs: arg.lease() },
      lease: 'visibilityMs',
      answer: 'the oldest available job (ready, or its lease ran out), now leased to the worker | nil none',
    },
    ack: {
      args: { worker: arg.holder(), job: arg.oneOf(JOBS) },
      answer: '1 acked | -1 not claimed by this worker (or its lease ran out) | nil unknown job',
    },
  },
  model: {
    init: () => ({ jobs: [] }),
    step(state, input, id) {
      switch (input.op) {
        case 'enqueue':
          return find(state, input.job)
            ? { state, output: 0 }
            : { state: { jobs: [...state.jobs, ready(input.job)] }, output: 1 };
        case 'claim': {
          const next = state.jobs.find((j) => j.st === 'ready');
          if (!next) return { state, output: null };
          return {
            state: withJob(state, next.id, { id: next.id, st: 'claimed', worker: input.worker, tag: id }),
            output: next.id,
          };
        }
        case 'ack': {
          const job = find(state, input.job);
          if (!job) return { state, output: null };
          if (job.st !== 'claimed' || job.worker !== input.worker) return { state, output: -1 };
          return { state: withJob(state, job.id, { id: job.id, st: 'acked' }), output: 1 };
        }
      }
      throw new Error(`unknown operation ${input.op}`);
    },
    leases: (state) => state.jobs.flatMap((j) => (j.st === 'claimed' ? [j.tag] : [])),
    expire: (state, tag) => {
      const job = state.jobs.find((j) => j.st === 'claimed' && j.tag === tag);
      return job ? withJob(state, job.id, ready(job.id)) : state;
    },
    // Coverage rows by the mix of states the queue holds: "empty", "ready", "claimed+ready", ...
    kind: (state) => [...new Set(state.jobs.map((j) => j.st))].sort().join('+') || 'empty',
    describe: (state) =>
      state.jobs.length
        ? state.jobs.map((j) => (j.st === 'claimed' ? `${j.id}:claimed by ${j.worker}` : `${j.id}:${j.st}`)).join(', ')
        : 'empty',
  },
  // Opt-in: the default race (derived from claim's lease: claim, then ack just before the lease runs
  // out, while a contender claims from just after) is staged on a key of its own that nobody
  // enqueued to, so every claim in it finds nothing. This one enqueues the job first: the holder
  // claims it, its ack is sent at the lease's end, and the contender claims the job as it comes back,
  // then acks it. An ack held past the lease must not settle the contender's job.
  races: [
    {
      name: "ack at the end of its claim's lease",
      instant: 'lease-end',
      victim: 'ack',
      needs: ['enqueue', 'claim', 'ack'],
      draw: (ctx) =>
        leaseEndRace(ctx, {
          leases: leasesOf(ctx.options),
          take: (worker, visibilityMs) => ({ op: 'claim', worker, visibilityMs }),
          victim: (worker) => ({ op: 'ack', worker, job: 'j1' }),
          finish: (worker) => [{ op: 'ack', worker, job: 'j1' }],
        }).map((race) => ({
          ...race,
          holder: [{ type: 'op', key: ctx.key, input: { op: 'enqueue', job: 'j1' } }, ...race.holder],
          aim: race.aim + 1,
        })),
    },
  ],
  invariants: {
    // Claim is the witness; ack too: an ack answered 1 for a worker without a live claim means a
    // second worker settled a job the first still holds (or one whose lease ran out and was handed on).
    'one-worker-per-job': {
      witnesses: ['claim', 'ack'],
      broken(stuck) {
        if (stuck.input.op === 'claim') {
          const job = find(stuck.state, named(stuck.observed));
          return job?.st === 'claimed'
            ? `${stuck.phrase} was handed ${held(job)} while that lease was still live`
            : undefined;
        }
        const job = find(stuck.state, stuck.input.job);
        if (Number(stuck.observed) !== 1 || !job || job.st === 'acked') return undefined;
        return job.st === 'claimed'
          ? `${stuck.phrase} acked ${held(job)}, a job another worker holds`
          : `${stuck.phrase} acked ${JSON.stringify(job.id)}, whose claim had run out: the job may be handed to another worker too`;
      },
    },
    // Claim is the witness; enqueue and ack too: a queue that accepts an acked job's id anew, or no
    // longer knows it, has forgotten it was done, and a producer's retried enqueue runs it again.
    'acked-never-redelivered': {
      witnesses: ['claim', 'enqueue', 'ack'],
      broken(stuck) {
        if (stuck.input.op !== 'claim') {
          const job = find(stuck.state, stuck.input.job);
          if (job?.st !== 'acked') return undefined;
          if (stuck.input.op === 'enqueue' && Number(stuck.observed) === 1)
            return `${stuck.phrase} queued ${JSON.stringify(job.id)} anew after it was acked: the job runs twice`;
          if (stuck.input.op === 'ack' && stuck.observed == null)
            return `${stuck.phrase} answered "unknown job" for ${JSON.stringify(job.id)}, which had been acked: the queue forgot it, and a retried enqueue would run it again`;
          return undefined;
        }
        const job = find(stuck.state, named(stuck.observed));
        return job?.st === 'acked'
          ? `${stuck.phrase} was handed ${JSON.stringify(job.id)}, which had been acked: the job runs twice`
          : undefined;
      },
    },
    // A job the queue accepted must stay, and be served in its turn, until it is acked: a claim that
    // finds nothing or a younger job while one is ready, or an ack that no longer knows the job, or
    // an enqueue accepting it anew, while it is queued or claimed, all show it lost.
    'no-job-lost': {
      witnesses: ['claim', 'ack', 'enqueue'],
      broken(stuck) {
        const { op } = stuck.input;
        if (op === 'claim') {
          const waiting = stuck.state.jobs.find((j) => j.st === 'ready');
          if (!waiting) return undefined;
          if (stuck.observed == null)
            return `${stuck.phrase} found no job while ${JSON.stringify(waiting.id)} was ready (or its lease had run out)`;
          // Handed a younger ready job: the older one was passed over (an expired lease not honoured).
          const given = find(stuck.state, named(stuck.observed));
          return given?.st === 'ready' && given.id !== waiting.id
            ? `${stuck.phrase} was handed ${JSON.stringify(given.id)} and passed over the older ${JSON.stringify(waiting.id)}, ready (or its lease had run out)`
            : undefined;
        }
        const job = find(stuck.state, stuck.input.job);
        if (!job) return undefined;
        if (op === 'ack' && stuck.observed == null && job.st !== 'acked')
          return `${stuck.phrase} answered "unknown job" for ${JSON.stringify(job.id)}, which the queue held (${job.st})`;
        if (op === 'enqueue' && Number(stuck.observed) === 1 && job.st !== 'acked')
          return `${stuck.phrase} queued ${JSON.stringify(job.id)} anew while the queue held it (${job.st}): the queue had lost it`;
        return undefined;
      },
    },
  },
});
