// A leader lease with fencing tokens, declared with chaoslua's pattern API (the core only).
//
// One key per election: a hash with the leader, its lease's deadline (server ms) and the term, the
// last fencing token issued. A candidate campaigns for a lease of ttlMs; it wins when no other
// leader's lease is live and gets the next token (the live leader campaigning again renews and gets
// its own token back). The leader renews and resigns. Tokens only ever grow, across leaders, so a
// storage service that remembers the highest token it has seen refuses a deposed leader's writes.
import { definePattern, arg } from 'chaoslua/pattern';

const answer = (observed) => Number(observed);
const who = (leader) => (leader === null ? 'no lease was live' : `${JSON.stringify(leader)} led`);

export default definePattern({
  name: 'leader-lease',
  description: 'a leader lease with fencing tokens: campaign, renew, resign',
  operations: {
    campaign: {
      args: { candidate: arg.holder(), ttlMs: arg.lease() },
      lease: 'ttlMs',
      answer: 'the fencing token (>= 1) | 0 another leader is live',
      weight: 2,
    },
    renew: {
      args: { candidate: arg.holder(), ttlMs: arg.lease() },
      lease: 'ttlMs',
      answer: '1 renewed | 0 not the live leader',
    },
    resign: { args: { candidate: arg.holder() }, answer: '1 resigned | 0 not the live leader' },
  },
  model: {
    // term: the last token issued, kept across leaders and lapses; tag: the id of the operation
    // that set the live lease (a renewal gives it a new one, so the old lease's end is a no-op).
    init: () => ({ kind: 'vacant', leader: null, tag: null, term: 0 }),
    step(state, input, id) {
      const leads = state.leader !== null && state.leader === input.candidate;
      switch (input.op) {
        case 'campaign':
          if (state.leader === null)
            return {
              state: { kind: 'led', leader: input.candidate, tag: id, term: state.term + 1 },
              output: state.term + 1,
            };
          if (leads) return { state: { ...state, tag: id }, output: state.term };
          return { state, output: 0 };
        case 'renew':
          return leads ? { state: { ...state, tag: id }, output: 1 } : { state, output: 0 };
        case 'resign':
          return leads
            ? { state: { kind: 'vacant', leader: null, tag: null, term: state.term }, output: 1 }
            : { state, output: 0 };
      }
      throw new Error(`unknown operation ${input.op}`);
    },
    leases: (state) => (state.leader === null ? [] : [state.tag]),
    // The lease ran out: nobody leads, and the term stays.
    expire: (state, tag) =>
      state.leader !== null && state.tag === tag
        ? { kind: 'vacant', leader: null, tag: null, term: state.term }
        : state,
    describe: (state) =>
      state.leader === null
        ? `vacant, last token ${state.term}`
        : `led by ${JSON.stringify(state.leader)} with token ${state.term}`,
  },
  // Opt-in: the transitions a certificate must have seen, so a job that never saw a lease run out,
  // a resignation or a renewal is not certified by default (the default requires none).
  coverage: {
    transitions: [
      'vacant → led by campaign',
      'led → led by campaign',
      'led → led by renew',
      'led → vacant by resign',
      'led → vacant by expiry',
    ],
    required: [
      { transition: 'vacant → led by campaign', needs: ['campaign'] },
      { transition: 'led → led by campaign', needs: ['campaign'] },
      { transition: 'led → led by renew', needs: ['campaign', 'renew'] },
      { transition: 'led → vacant by resign', needs: ['campaign', 'resign'] },
      { transition: 'led → vacant by expiry', needsAnyOf: ['lease-expiry', 'client-freeze'], needs: ['campaign'] },
    ],
  },
  invariants: {
    // First, so that a repeated token is named for what it is in whichever order of the past the
    // search was stuck in (a fresh win's token is above every earlier term, so one-leader keeps its
    // cases). The model knows the last token issued, so the expected answer is exact: a win must answer
    // the token after it, and a live leader's re-campaign its own. A token not above the last one
    // issued, where it is not the leader's own, lets two leaders' writes carry the same fence.
    'fencing-tokens-increase': {
      witnesses: ['campaign'],
      broken: ({ state, observed, expected, phrase }) => {
        const token = answer(observed);
        if (!(Number.isSafeInteger(token) && token > 0) || token === expected || token > state.term) return undefined;
        return `${phrase} answered token ${token}, not above the last token issued (${state.term}); the model answers ${expected}`;
      },
    },
    'one-leader': {
      witnesses: ['campaign'],
      broken: ({ state, input, observed, phrase }) =>
        answer(observed) > 0 && state.leader !== null && state.leader !== input.candidate
          ? `${phrase} won with token ${answer(observed)} while ${JSON.stringify(state.leader)}'s lease was live`
          : undefined,
    },
    'only-leader-acts': {
      witnesses: ['renew', 'resign'],
      broken: ({ state, input, observed, phrase }) =>
        answer(observed) === 1 && state.leader !== input.candidate
          ? `${phrase} answered 1 although ${who(state.leader)}`
          : undefined,
    },
  },
});
