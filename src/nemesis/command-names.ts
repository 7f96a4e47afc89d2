import type { CommandFaults } from '../resp/index.ts';

/** Names learnt from earlier runs' client phases, per cluster. */
const learnt = new WeakMap<CommandFaults, Set<string>>();

/**
 * The command names a command fault may pick from: the data commands the implementation sends while
 * the clients run. A run's names are those that went by between the command lane's start and its
 * end — within the clients' phase, so the harness's own post-run look at the keys (PTTL) is not
 * among them — and they are kept for the later runs on the same cluster, so a fault early in a run
 * can aim at a command that only comes late in it (a release's GET).
 */
export class RunNames {
  private readonly before: ReadonlyMap<string, number>;

  constructor(private readonly points: CommandFaults) {
    this.before = new Map(points.observedCounts());
  }

  /** Learnt in earlier runs, or seen so far in this one; sorted. */
  current(): string[] {
    const names = new Set(learnt.get(this.points));
    for (const [name, count] of this.points.observedCounts()) if (count > (this.before.get(name) ?? 0)) names.add(name);
    return [...names].sort();
  }

  /** The lane is over: what this run's clients sent is learnt. */
  learn(): void {
    learnt.set(this.points, new Set(this.current()));
  }
}
