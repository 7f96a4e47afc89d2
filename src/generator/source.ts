/**
 * What the generator reads of a pattern, handed to it as a value (a `Pattern` of src/patterns is
 * one as it stands): the operations it may draw, the settings its sessions read, one client's
 * session, and the races it stages. The generator never looks a pattern up by name.
 */
import type fc from 'fast-check';
import type { ClientStep } from '../plan/schedule.ts';
import type { RaceSource, SessionContext } from './sessions/common.ts';
import type { SessionSetting } from './settings.ts';

export interface SessionSource<I = any> {
  /** The name schedules record (`Schedule.pattern`). */
  readonly name: string;
  /** By the name a model input carries in `op`: the operations a session may draw. */
  readonly operations: Readonly<Record<string, unknown>>;
  /** What a job may set for the sessions (`--set`), by name; absent: nothing to set. */
  readonly settings?: Readonly<Record<string, SessionSetting>>;
  /** One client's session under attempt number `attempt` (owner/token c<client>a<attempt>). */
  session(ctx: SessionContext, attempt: number): fc.Arbitrary<ClientStep<I>[]>;
  /** Its critical instants: the races a session drawn alone rarely makes, one staged at the start of most runs (./races.ts). */
  readonly races?: readonly RaceSource<I>[];
}
