/** Node index -> the nodes whose packets it drops (Jepsen's grudge). */
export type Grudge = ReadonlyMap<number, readonly number[]>;

/** What a backend that can partition its nodes offers the nemesis. */
export interface Partitions {
  /** Put `grudge` in force, replacing any before it. */
  cut(grudge: Grudge): Promise<void>;
  /** The grudge in force, in words ("n0 drops n1,n2; ..."). */
  describe(): string;
}
