/** The Subject adapters: the implementation under test behind one interface, whatever it is made of. */
export type { Subject } from './types.ts';
export { createReferenceSubject } from './reference.ts';
export type { ReferencePattern, ReferenceSubject, ReferenceSubjectOptions } from './reference.ts';
