/**
 * The search's doubly linked list of call and return nodes in time order (Porcupine's shape): entry
 * i owns nodes 2i (its call) and 2i+1 (its return), and the head is node 2n. Lifting an entry takes
 * both its nodes out when it is linearized; unlifting puts them back, in reverse, on backtracking.
 */
import type { KeyProblem } from '../problem.ts';
import { sortedNodes } from '../problem.ts';

export interface ScanList {
  readonly head: number;
  readonly next: Int32Array;
  readonly prev: Int32Array;
}

export function scanList(problem: KeyProblem<unknown, unknown, unknown>): ScanList {
  const head = 2 * problem.n;
  const next = new Int32Array(head + 1);
  const prev = new Int32Array(head + 1);
  let last = head;
  for (const node of sortedNodes(problem)) {
    next[last] = node;
    prev[node] = last;
    last = node;
  }
  next[last] = -1;
  return { head, next, prev };
}

export function lift({ next, prev }: ScanList, i: number): void {
  const call = 2 * i;
  const ret = call + 1;
  next[prev[call]] = next[call];
  if (next[call] !== -1) prev[next[call]] = prev[call];
  next[prev[ret]] = next[ret];
  if (next[ret] !== -1) prev[next[ret]] = prev[ret];
}

export function unlift({ next, prev }: ScanList, i: number): void {
  const call = 2 * i;
  const ret = call + 1;
  next[prev[ret]] = ret;
  if (next[ret] !== -1) prev[next[ret]] = ret;
  next[prev[call]] = call;
  if (next[call] !== -1) prev[next[call]] = call;
}
