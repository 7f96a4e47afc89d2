import type { AnyPattern } from '../../patterns/types.ts';
import { describeImpl, type ImplSpec } from '../../impl/impl-spec.ts';
import { cmdOpener } from './cmd.ts';
import type { ImplOpener } from '../types.ts';
import type { Durability } from '../../plan/durability.ts';
import { moduleOpener } from './module.ts';
import { luaDirOpener } from './lua-dir.ts';

/**
 * How each kind of --impl is opened on a started cluster (with `--durability`, told to WAIT;
 * `clientClocks`: client-clock is in the fault set, so a cmd: program runs a process per client).
 */
export function openerFor(
  pattern: AnyPattern,
  spec: ImplSpec,
  durability?: Durability,
  clientClocks = false,
): ImplOpener {
  switch (spec.kind) {
    case 'lua':
      return luaDirOpener(pattern, spec.dir, describeImpl(spec), durability);
    case 'module':
      return moduleOpener(pattern, spec.file, { durability });
    case 'cmd':
      return cmdOpener(pattern, spec.command, { durability, clientClocks });
  }
}
