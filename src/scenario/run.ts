import { EnvironmentError } from '../cluster/errors.ts';
import type { ClusterPool } from './pool.ts';
import type { AnyScenario, Scenario, ScenarioResult, Slot, SlotResult } from './types.ts';

export interface RunScenarioOptions {
  readonly pool: ClusterPool;
  /** Narrative lines as they happen. */
  readonly say?: (line: string) => void;
  /** Makes key namespaces unique per batch. */
  readonly seed?: number;
}

/** The scenario with its remediation taken out: the broken variant runs in both slots, so it must fail. */
export function withoutRemediation<O extends object>(scenario: Scenario<O>): Scenario<O> {
  return { ...scenario, remediated: scenario.broken };
}

/**
 * Run the broken variant, then the remediated one, on the same cluster and the same schedule; judge
 * both with the scenario's one rule. Passed = the broken one failed as documented and the fix held.
 * Environment failures (no cluster) are thrown, never reported as a scenario result.
 */
export async function runScenario(scenario: AnyScenario, options: RunScenarioOptions): Promise<ScenarioResult> {
  const say = options.say ?? (() => undefined);
  const seed = options.seed ?? Math.floor(Math.random() * 1e6);
  const started = performance.now();
  say(`scenario ${scenario.name}: ${scenario.title}`);
  say(`  reproduces: ${scenario.row}`);
  say(`  fault:      ${scenario.fault}`);
  say(`  must see:   ${scenario.observe}`);
  const cluster = await options.pool.get(scenario.cluster);

  const runSlot = async (slot: Slot): Promise<SlotResult> => {
    const variant = scenario[slot];
    say(`  ${slot}: ${variant.label} (${variant.source})`);
    const t0 = performance.now();
    const base = { slot, variant: variant.label, source: variant.source };
    let result: SlotResult;
    try {
      const observations = await variant.run({
        cluster,
        namespace: `${scenario.name}-${seed}-${slot}`,
        slot,
        say: (line) => say(`    [${slot}] ${line}`),
      });
      const { held, why } = scenario.judge(observations);
      const metric = { name: scenario.metric, value: scenario.metricValue(observations) };
      result = { ...base, held, why, metric, observations, ms: performance.now() - t0 };
      say(`    => ${held ? 'guarantee held' : 'GUARANTEE BROKEN'}: ${why}`);
      say(`    => metric ${metric.name} = ${metric.value}`);
    } catch (error) {
      if (error instanceof EnvironmentError) throw error;
      const message = (error as Error).stack ?? String(error);
      result = {
        ...base,
        why: 'the step crashed',
        metric: { name: scenario.metric, value: null },
        observations: null,
        error: message,
        ms: performance.now() - t0,
      };
      say(`    => step crashed: ${(error as Error).message}`);
    }
    // Every step ends on a healthy cluster: the next step (or scenario) must not inherit a fault.
    try {
      await cluster.heal();
    } catch (error) {
      throw new EnvironmentError(
        `the cluster did not recover after ${scenario.name} (${slot}): ${(error as Error).message}`,
      );
    }
    return result;
  };

  const broken = await runSlot('broken');
  const remediated = await runSlot('remediated');
  const problems: string[] = [];
  if (broken.error) problems.push(`the broken variant crashed: ${broken.error.split('\n')[0]}`);
  else if (broken.held) problems.push(`the broken variant did not fail: ${broken.why}`);
  else
    problems.push(
      ...scenario
        .documented(broken.observations!)
        .map((p) => `the broken variant did not show the documented symptom: ${p}`),
    );
  if (remediated.error) problems.push(`the remediated variant crashed: ${remediated.error.split('\n')[0]}`);
  else if (!remediated.held) problems.push(`the remediation did not hold: ${remediated.why}`);

  const passed = problems.length === 0;
  for (const note of scenario.notes ?? []) say(`  note: ${note}`);
  say(
    passed
      ? `  result: AS DOCUMENTED (the broken variant failed as the row says; the remediation held)`
      : `  result: NOT AS DOCUMENTED`,
  );
  for (const p of problems) say(`    - ${p}`);
  return {
    name: scenario.name,
    title: scenario.title,
    row: scenario.row,
    fault: scenario.fault,
    observe: scenario.observe,
    passed,
    problems,
    broken,
    remediated,
    notes: scenario.notes ?? [],
    ms: performance.now() - started,
  };
}

/** Several scenarios, one after another, sharing the pool's clusters. */
export async function runScenarios(
  scenarios: readonly AnyScenario[],
  options: RunScenarioOptions,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) results.push(await runScenario(scenario, options));
  return results;
}
