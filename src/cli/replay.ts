import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readBoundedText } from '../files/bounded-read.ts';
import { loadPatternFile } from './pattern-file.ts';
import { check } from '../checker/index.ts';
import type { CheckResult } from '../checker/types.ts';
import { parseClusterSpec, startCluster } from '../cluster/select.ts';
import { describeTopology, type TopologySpec } from '../plan/topology.ts';
import { serverFlag } from './server-flag.ts';
import { checkableSpec, isCheckableModel } from '../patterns/checkable.ts';
import { isPatternName, patternNamed } from '../patterns/index.ts';
import { readCounterexample, type Counterexample } from '../report/counterexample.ts';
import { JOB_DEFAULTS } from '../certify/options.ts';
import { passes, replaySchedule } from '../certify/replay.ts';
import { ImplSpecError, parseImplSpec } from '../impl/impl-spec.ts';
import { intFlag, parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { processIo, type Io } from './io.ts';
import { openerFor } from '../certify/openers/index.ts';
import type { Durability } from '../plan/durability.ts';

export const summary = 're-check a counterexample file, and re-run its schedule against a live cluster';

export const HELP = `usage: chaoslua replay FILE [options]

Re-check the recorded history of a counterexample.json (deterministic), then re-run its shrunk
schedule against a fresh cluster (best effort: timing differs) and say whether it failed again.
Exit 1 when the failure reproduces, 0 when it does not, 2 usage, 3 environment.

options:
  --no-rerun        only re-check the recorded history (default: off)
  --reruns N        re-run the schedule up to N times until it fails (default 3)
  --cluster C       local | compose | netns | redis://... (default local)
  --server S        the server to re-run on (default: the one the counterexample's job asked for, else the default)
  --pattern FILE    the pattern file of a counterexample whose recorded file moved (default: the one it recorded)
  --json            print the outcome as JSON (default: off)
  -h, --help        this text
${helpFooter('replay')}`;

export const FLAGS = {
  'no-rerun': { type: 'boolean' },
  reruns: { type: 'string' },
  cluster: { type: 'string' },
  server: { type: 'string' },
  pattern: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const { values, positionals } = parse('replay', argv, FLAGS, true);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError(`replay: expected one counterexample file, got ${positionals.length}`);
  await loadRecordedPattern(positionals[0]);
  let ce: Counterexample;
  try {
    ce = readCounterexample(positionals[0]);
  } catch (error) {
    throw new UsageError(`replay: ${(error as Error).message}`);
  }
  const reruns = intFlag('replay', 'reruns', values.reruns, 3, 1, 1000);
  // A counterexample written by `chaoslua check` may name a generic model (register, kv).
  if (!isCheckableModel(ce.pattern))
    throw new UsageError(`replay: unknown pattern '${ce.pattern}' in the counterexample`);
  const spec = checkableSpec(ce.pattern);
  const recheck = check(ce.history, spec);
  const recorded = ce.result.verdict;
  const lines = [
    `re-check of the recorded history: ${recheck.verdict} (recorded: ${recorded})${recheck.verdict === recorded ? '' : ' — DIFFERS'}`,
  ];
  for (const v of recheck.violations) lines.push(`  ${v.invariant}: ${v.message}`);

  let rerun: { attempts: number; result?: CheckResult; failedAgain: boolean; on?: string } | undefined;
  if (!values['no-rerun']) rerun = await rerunSchedule(ce, values.cluster ?? 'local', reruns, values.server);
  if (rerun) {
    lines.push(
      `re-run of the schedule against a live cluster${rerun.on ? ` (${rerun.on})` : ''}: ${rerun.failedAgain ? `FAILED AGAIN on attempt ${rerun.attempts}` : `passed ${rerun.attempts} time(s)`}`,
    );
    for (const v of rerun.result?.violations ?? []) lines.push(`  ${v.invariant}: ${v.message}`);
  }
  const reproduced = rerun ? rerun.failedAgain : !passes(recheck);
  if (values.json) {
    io.stdout.write(
      JSON.stringify(
        {
          recheck: recheck.verdict,
          recorded,
          rerun: rerun && { attempts: rerun.attempts, failedAgain: rerun.failedAgain, verdict: rerun.result?.verdict },
          reproduced,
        },
        null,
        2,
      ) + '\n',
    );
  } else io.stdout.write(lines.join('\n') + '\n');
  return reproduced ? EXIT.failed : EXIT.ok;
}

/**
 * A counterexample of a pattern a team declared names the file it was loaded from: loaded again
 * here, unless `--pattern FILE` loaded it already (the file moved) or the file is gone (then the
 * counterexample's check says which pattern it needs).
 */
async function loadRecordedPattern(file: string): Promise<void> {
  let recorded: { pattern?: unknown; patternFile?: unknown };
  try {
    recorded = JSON.parse(readBoundedText(file, 'counterexample')) as typeof recorded;
  } catch {
    return; // readCounterexample says what is wrong with the file
  }
  if (
    typeof recorded?.patternFile !== 'string' ||
    typeof recorded.pattern !== 'string' ||
    isPatternName(recorded.pattern)
  )
    return;
  if (!existsSync(recorded.patternFile))
    throw new UsageError(
      `replay: the counterexample's pattern '${recorded.pattern}' was loaded from ${recorded.patternFile}, which is gone: give it with --pattern FILE`,
    );
  await loadPatternFile(recorded.patternFile);
}

/** The `--server` a counterexample's job asked for (a name, or a path), if its options record one. */
function recordedServer(options: unknown): string | undefined {
  const asked = (options as { server?: { asked?: unknown } } | undefined)?.server?.asked;
  return typeof asked === 'string' && asked !== '' ? asked : undefined;
}

/** The independent masters or Sentinel deployment a counterexample's job ran on, if its options record them; else a Redis Cluster. */
function recordedTopology(options: unknown): TopologySpec | undefined {
  const t = (options as { topology?: { kind?: unknown; count?: unknown; replicas?: unknown } } | undefined)?.topology;
  if (t?.kind === 'masters' && Number.isSafeInteger(t.count)) return { kind: 'masters', count: t.count as number };
  if (t?.kind === 'sentinel' && Number.isSafeInteger(t.replicas))
    return { kind: 'sentinel', replicas: t.replicas as number };
  return undefined;
}

async function rerunSchedule(ce: Counterexample, clusterSpec: string, reruns: number, serverAsked?: string) {
  if (!ce.implSpec)
    throw new UsageError(
      'replay: the counterexample does not say which implementation produced it (no implSpec); use --no-rerun',
    );
  if (!isPatternName(ce.pattern))
    throw new UsageError(
      `replay: '${ce.pattern}' is a model, not a pattern with implementations to re-run; use --no-rerun`,
    );
  const pattern = patternNamed(ce.pattern);
  let spec;
  try {
    spec = parseImplSpec(ce.implSpec, pattern);
  } catch (error) {
    if (error instanceof ImplSpecError) throw new UsageError(`replay: ${error.message}`);
    throw error;
  }
  const recorded = Number((ce.options as { nodeTimeoutMs?: number }).nodeTimeoutMs);
  const nodeTimeoutMs = Number.isSafeInteger(recorded) ? recorded : JOB_DEFAULTS.nodeTimeoutMs;
  // Re-run on the server and topology the counterexample was found on (--server overrides the server).
  const server = serverFlag('replay', serverAsked ?? recordedServer(ce.options), parseClusterSpec(clusterSpec).kind);
  const topology = recordedTopology(ce.options);
  await using cluster = await startCluster(clusterSpec, {
    local: { nodeTimeoutMs, ...(server ? { redisServer: server.binary } : {}) },
    ...(topology ? { topology } : {}),
  });
  // A counterexample found with --durability is re-run with it: its verdict may rest on WAIT's answers;
  // one whose clients' clocks were offset gets them again (a cmd: program: a process per client).
  const opened = await openerFor(
    pattern,
    spec,
    recordedDurability(ce.options),
    ce.schedule.clientClocks !== undefined,
  )(cluster, ce.schedule.clients.length);
  try {
    const replay = await replaySchedule(
      ce.schedule,
      { cluster, subjects: opened.subjects, pattern, nodeTimeoutMs },
      reruns,
      `replay-${randomBytes(3).toString('hex')}`,
    );
    const on = [server ? `--server ${server.asked}` : '', topology ? describeTopology(topology) : '']
      .filter(Boolean)
      .join(', ');
    return { attempts: replay.attempts, result: replay.last.result, failedAgain: replay.failing !== undefined, on };
  } finally {
    await opened.close();
  }
}

/** The --durability a counterexample's job ran with, if its options hold a well-formed one. */
function recordedDurability(options: unknown): Durability | undefined {
  const d = (options as { durability?: { replicas?: unknown; timeoutMs?: unknown } } | undefined)?.durability;
  if (!d || !Number.isSafeInteger(d.replicas) || !Number.isSafeInteger(d.timeoutMs)) return undefined;
  return { replicas: d.replicas as number, timeoutMs: d.timeoutMs as number };
}
