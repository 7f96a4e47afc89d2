import { clockAssumptions } from '../certify/clock-assumption.ts';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { capabilitiesJson } from '../patterns/capabilities.ts';
import { variantsJson } from '../patterns/variants.ts';
import { formatFinding, isError, lintPath, lintTargetOf } from '../lint/index.ts';
import type { Certificate } from '../report/certificate.ts';
import { createRunFolder, writeJson } from '../report/folder.ts';
import { junitXml } from '../report/junit.ts';
import { describeImpl, ImplSpecError, implDigest, implFiles, parseImplSpec, type ImplSpec } from '../impl/impl-spec.ts';
import { checkBoundedFile, InputLimitError } from '../files/bounded-read.ts';
import { parse } from './args.ts';
import { CHAOS_FLAGS, CHAOS_FLAGS_HELP, FAULTS_HELP, jobOptions } from './chaos-flags.ts';
import { EXIT, jobExitCode, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { processIo, type Io } from './io.ts';
import { runJob } from '../certify/job.ts';
import { JOB_DEFAULTS } from '../certify/options.ts';
import { discardedJson, evidenceJson, operationJson, summaryText } from '../certify/summary.ts';
import { duplicateCounts } from '../certify/duplicates.ts';
import type { JobOptions, JobResult } from '../certify/types.ts';
import { openerFor } from '../certify/openers/index.ts';
import { describeDurability } from '../plan/durability.ts';
import { minOkPerOperation, operationNames } from '../certify/evidence.ts';
import { checkModuleSyntax } from '../impl/module-syntax.ts';
import {
  CORPUS_FLAGS,
  CORPUS_FLAGS_HELP,
  SHARD_FLAGS,
  SHARD_FLAGS_HELP,
  corpusOption,
  shardOption,
} from './gate-flags.ts';
import { corpusJson } from '../certify/corpus-report.ts';
import { readBaseline, reportBaseline } from './baseline.ts';
import { shardPlan } from '../certify/shard-plan.ts';
import { clientClockField } from '../certify/client-clock-line.ts';
import { parseClusterSpec } from '../cluster/select.ts';
import { certifyMatrix, type CertifyOne } from './certify-matrix.ts';
import { serversFlag, SERVERS_FLAG_HELP } from './servers-flag.ts';

export const summary = 'certify an implementation (lua:DIR, module:PATH or cmd:COMMAND) under chaos';

export const HELP = `usage: chaoslua certify --impl SPEC [options]

Certify an implementation of a pattern against the model, under random concurrent schedules and
faults on a real cluster. Exit 0 certified, 1 not certified, 2 usage error, 3 environment failure.

SPEC:
  lua:DIR            the pattern's scripts, DIR/<script>.lua (idempotency: register_or_get.lua, complete.lua,
                     release.lua, renew.lua; a pattern file's: one per operation), called through the reference client
  module:PATH        a JS/TS module whose createStore (or default) export builds the store
  cmd:'COMMAND ARGS' a program speaking the process protocol (docs/process-protocol.md)

options:
  --impl SPEC        the implementation (required; no default)
  --no-lint          skip the static checks of lua: scripts, which run before any schedule (default: off)
${CORPUS_FLAGS_HELP}
${SHARD_FLAGS_HELP}
${SERVERS_FLAG_HELP}
${CHAOS_FLAGS_HELP}

${FAULTS_HELP}

With --baseline the exit code follows the comparison (0 no regression, even when not certified);
certificate.json still says whether this run was certified.
${helpFooter('certify')}`;

export const FLAGS = {
  ...CHAOS_FLAGS,
  ...CORPUS_FLAGS,
  ...SHARD_FLAGS,
  impl: { type: 'string' },
  'no-lint': { type: 'boolean' },
  servers: { type: 'string' },
} as const;

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  const { values } = parse('certify', argv, FLAGS);
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (!values.impl) throw new UsageError("certify: --impl is required (lua:DIR, module:PATH or cmd:'COMMAND ARGS')");
  if (values.servers !== undefined && values.server !== undefined)
    throw new UsageError(
      'certify: --servers and --server cannot be used together (--servers names every server of the matrix)',
    );
  const options = { ...jobOptions('certify', values), shard: shardOption('certify', values) };
  const servers = serversFlag('certify', values.servers, parseClusterSpec(options.cluster).kind, values);
  const baseline =
    values.baseline === undefined ? undefined : readBaseline('certify', values.baseline, options.pattern.name);
  let spec: ImplSpec;
  try {
    spec = parseImplSpec(values.impl, options.pattern);
  } catch (error) {
    if (error instanceof ImplSpecError) throw new UsageError(`certify: ${error.message}`);
    throw error;
  }
  try {
    // A module's syntax is checked before the cluster starts (file:line:column), not at import.
    // Its files are hashed, linted and loaded by readers that trust them: a FIFO or a huge file is refused first.
    for (const file of implFiles(spec, options.pattern))
      checkBoundedFile(file, spec.kind === 'lua' ? 'Lua script' : 'module');
    if (spec.kind === 'module') await checkModuleSyntax(spec.file);
  } catch (error) {
    if (error instanceof ImplSpecError) throw new UsageError(`certify: ${error.message}`);
    if (error instanceof InputLimitError) throw new UsageError(`certify: --impl ${values.impl}: ${error.message}`);
    throw error;
  }
  const corpus = corpusOption(
    'certify',
    values,
    describeImpl(spec),
    options.pattern.name,
    implDigest(spec, options.pattern),
  );
  let lintAdvice: string[] = [];
  if (spec.kind === 'lua' && !values['no-lint']) {
    let findings;
    try {
      // Linted for the server asked for, when one was: its loader decides what compiles.
      findings = await lintPath(
        spec.dir,
        options.server?.version ? lintTargetOf(options.server.version, true) : undefined,
      );
    } catch (error) {
      if (error instanceof InputLimitError) throw new UsageError(`certify: --impl ${values.impl}: ${error.message}`);
      throw error;
    }
    const syntax = findings.find((f) => f.rule === 'syntax');
    if (syntax) throw new UsageError(`certify: Lua does not compile: ${formatFinding(syntax)}`);
    // Only errors refuse; advice (TIME under effects replication, ...) rides along on the certificate.
    const errors = findings.filter(isError);
    if (errors.length) return lintRejection(options, spec, errors.map(formatFinding), io);
    lintAdvice = findings.map(formatFinding);
  }
  const impl = spec;
  // One job on one server: its certificate.json written and its summary printed (a matrix runs it once per server).
  const certifyOne: CertifyOne = async (job, jobIo) => {
    let result: JobResult;
    try {
      result = await runJob(
        { ...job, implSpec: describeImpl(impl), corpus },
        openerFor(job.pattern, impl, job.durability, job.faults.includes('client-clock')),
        jobIo,
      );
    } catch (error) {
      if (error instanceof ImplSpecError) throw new UsageError(`certify: ${error.message}`);
      throw error;
    }
    const cert = { ...certificate(job, impl, result), ...(lintAdvice.length ? { lintAdvice } : {}) };
    writeJson(result.dir, 'certificate.json', cert);
    jobIo.stdout.write(
      job.json ? JSON.stringify(cert, null, 2) + '\n' : summaryText(job, result) + adviceText(lintAdvice),
    );
    return { result, certificate: cert };
  };
  if (servers) return certifyMatrix({ ...options, implSpec: describeImpl(spec) }, servers, certifyOne, io);
  const { result, certificate: cert } = await certifyOne(options, io);
  // An environment failure is exit 3 whatever the baseline says: the job did not run its budget.
  if (baseline && !(result.incomplete && !result.outcome.failure))
    return reportBaseline(baseline, cert, result.dir, options.json, io);
  return jobExitCode(result);
}

/** A pattern a team declared: its file as the job was given it (relative to where it ran) and the file's digest. */
const patternFileField = (options: JobOptions): Pick<Certificate, 'patternFile'> =>
  options.pattern.source
    ? {
        patternFile: {
          file: path.relative(process.cwd(), options.pattern.source.file) || '.',
          sha256: options.pattern.source.sha256,
        },
      }
    : {};

/** certificate.json of a finished job (exported for the shard tests, which merge real ones). */
export function certificate(options: JobOptions, spec: ImplSpec, r: JobResult): Certificate {
  return {
    version: 1,
    certified: r.passed,
    pattern: options.pattern.name,
    ...patternFileField(options),
    implementation: { spec: describeImpl(spec), sha256: implDigest(spec, options.pattern) },
    redis: {
      version: r.redisVersion,
      ...(r.server ? { server: r.server.name, allocator: r.server.allocator, features: r.server.features } : {}),
      ...(r.image ? { image: r.image } : {}),
      ...(options.server ? { asked: options.server.asked } : {}),
      topology: r.topology,
      cluster: options.cluster,
      ...(r.lanes > 1 ? { clusters: r.lanes } : {}),
    },
    ...(options.durability ? { durability: describeDurability(options.durability) } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    seed: r.outcome.seed,
    // The faults asked for, when not every one (--faults): what a reproduction must ask again.
    ...(sameFaults(options.faults, JOB_DEFAULTS.faults) ? {} : { faultsAsked: [...options.faults] }),
    runs: r.outcome.tally.runs,
    discarded: discardedJson(r),
    operations: r.outcome.tally.ops,
    faults: r.outcome.tally.faultCounts,
    skippedFaults: r.skippedFaults,
    evidence: evidenceJson(r),
    ...(r.capabilities.declared ? { capabilities: capabilitiesJson(r.capabilities) } : {}),
    ...(r.capabilities.variants ? { variants: variantsJson(r.capabilities) } : {}),
    ...(r.keyMapping ? { keyMapping: r.keyMapping } : {}),
    invariants: r.invariants.map((s) => ({
      invariant: s.invariant,
      passed: s.passed,
      ...(s.notApplicable ? { notApplicable: s.notApplicable } : {}),
      ...(s.barelyWitnessed ? { barelyWitnessed: s.barelyWitnessed } : {}),
      violations: s.violations.map((v) => ({
        invariant: s.invariant,
        message: v.message,
        counterexample: r.counterexampleFile,
      })),
    })),
    findings: r.findings,
    ...(r.incomplete ? { incomplete: true } : {}),
    replicationLosses: r.outcome.tally.replicationLosses,
    ...clientClockField(options, r),
    ...(r.outcome.tally.clockLosses ? { clockLosses: r.outcome.tally.clockLosses } : {}),
    clocks: clockAssumptions(options.faults, options.faultSettings),
    duplicateEffects: duplicateCounts(r.duplicateEffects),
    duplicateFindings: r.duplicateFindings,
    issuedAt: new Date().toISOString(),
    seconds: Math.round(r.outcome.ms) / 1000,
    ...(r.outcome.failure
      ? {
          firstFailure: {
            run: r.outcome.failure.firstFailure.run,
            seconds: Math.round(r.outcome.failure.firstFailure.seconds * 1000) / 1000,
          },
        }
      : {}),
    shard: options.shard && { ...options.shard, plan: shardPlan(options) },
    corpus: corpusJson(r.corpus),
  };
}

const sameFaults = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((f) => b.includes(f));

/** The summary's lines for lint advice: shown, never a reason to refuse. */
function adviceText(advice: readonly string[]): string {
  if (advice.length === 0) return '';
  return [`  lint advice (${advice.length}, not a refusal):`, ...advice.map((a) => `    ${a}`)].join('\n') + '\n';
}

/** Static defects found before any run: not certified, with the findings as the reason. */
function lintRejection(options: JobOptions, spec: ImplSpec, findings: string[], io: Io): number {
  const dir = createRunFolder(options.reportRoot, 'certify', options.seed);
  const cert: Certificate = {
    version: 1,
    certified: false,
    pattern: options.pattern.name,
    ...patternFileField(options),
    implementation: { spec: describeImpl(spec), sha256: implDigest(spec, options.pattern) },
    redis: { version: 'not started', topology: '', cluster: options.cluster },
    ...(options.settings ? { settings: options.settings } : {}),
    seed: options.seed,
    runs: 0,
    discarded: { runs: 0, causes: [] },
    operations: 0,
    faults: {},
    skippedFaults: [],
    // Nothing ran, so nothing was observed; the lint findings are the reason, not missing evidence.
    evidence: {
      minOkPerOperation: minOkPerOperation(options.runs),
      operations: Object.fromEntries(
        operationNames(options.pattern).map((op) => [op, operationJson({ op, issued: 0, ok: 0, fail: 0, info: 0 })]),
      ),
      transitions: {},
      missing: [],
    },
    invariants: [],
    findings: findings.map((f) => `lint: ${f}`),
    replicationLosses: 0,
    clocks: clockAssumptions(options.faults, options.faultSettings),
    duplicateEffects: Object.fromEntries(operationNames(options.pattern).map((op) => [op, 0])),
    duplicateFindings: [],
    issuedAt: new Date().toISOString(),
    seconds: 0,
    // Every shard refuses the same scripts: their certificates still merge, into a refusal.
    shard: options.shard && { ...options.shard, plan: shardPlan(options) },
  };
  writeJson(dir, 'certificate.json', cert);
  writeFileSync(
    path.join(dir, 'junit.xml'),
    junitXml(
      `chaoslua certify ${options.pattern.name}`,
      findings.map((f) => ({ name: 'lint', passed: false, message: f })),
      0,
    ),
  );
  if (options.json) io.stdout.write(JSON.stringify(cert, null, 2) + '\n');
  else {
    io.stdout.write(
      `chaoslua certify: FAILED — ${options.pattern.name}, ${describeImpl(spec)}: static checks found ${findings.length} defect(s) before any run\n`,
    );
    for (const f of findings) io.stdout.write(`  ${f}\n`);
    io.stdout.write(`  (--no-lint runs the schedules anyway)\n  report: ${dir}\n`);
  }
  return EXIT.failed;
}
