import type { Rule } from '../rule.ts';
import { evalShebang } from './eval-shebang.ts';
import { globalAssignment } from './global-assignment.ts';
import { keyspaceScan } from './keyspace-scan.ts';
import { nondeterminism } from './nondeterminism.ts';
import { ownerCheckFirst } from './owner-check-first.ts';
import { unboundedLoop } from './unbounded-loop.ts';
import { undeclaredKey } from './undeclared-key.ts';

export const ALL_RULES: readonly Rule[] = [
  undeclaredKey,
  keyspaceScan,
  unboundedLoop,
  nondeterminism,
  globalAssignment,
  ownerCheckFirst,
  evalShebang,
];
