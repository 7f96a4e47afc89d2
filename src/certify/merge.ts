/**
 * `chaoslua merge`: the certificates of n shards (`certify --shard k/n`) combined into the one a single
 * job of all their runs would have written. Pure: certificates in, certificate out.
 *
 * The shards must be one budget split: the same pattern, implementation (sha256), seed, n,
 * settings (they decide what the sessions draw) and durability (a WAITed job judges
 * lost-acknowledged-write, an unWAITed one cannot), each
 * shard 0 .. n-1 exactly once. Counts are summed (runs, operations, faults by kind, discarded runs,
 * replication losses, duplicate effects by operation, evidence), invariants fail if any shard's failed (their counterexamples
 * listed), findings are listed with their shard. Evidence is judged here, over all the runs, with the
 * thresholds one job uses (a shard does not judge it: its runs are a part of the budget). Certified
 * only if every shard was and the evidence of all of them suffices.
 */
import { minOkPerOperation, OK_PER_RUN } from './evidence.ts';
import type { Certificate } from '../report/certificate.ts';
import { operationJson } from './summary.ts';
import { isPatternName, patternNamed } from '../patterns/index.ts';
import { describeSettings } from '../plan/settings.ts';
import { fillSettings } from '../generator/settings.ts';

export class MergeError extends Error {
  override readonly name = 'MergeError';
}

export interface ShardCertificate {
  readonly file: string;
  readonly certificate: Certificate;
}

type Evidence = NonNullable<Certificate['evidence']>;
type OperationCounts = Evidence['operations'][string];

export function mergeCertificates(
  inputs: readonly ShardCertificate[],
  issuedAt = new Date().toISOString(),
): Certificate {
  if (inputs.length === 0) throw new MergeError('no certificates to merge');
  const first = inputs[0].certificate;
  for (const { file, certificate: c } of inputs) {
    if (!c.shard) throw new MergeError(`${file}: not a shard's certificate (certify --shard k/n writes one)`);
    if (c.pattern !== first.pattern)
      throw new MergeError(`${file}: pattern ${c.pattern}, but ${inputs[0].file} is ${first.pattern}`);
    // A pattern a team declared: the shards must have run the same file's bytes.
    if (c.patternFile?.sha256 !== first.patternFile?.sha256)
      throw new MergeError(
        `${file}: pattern file sha256 ${c.patternFile?.sha256.slice(0, 12) ?? 'none'}…, but ${inputs[0].file} has ${first.patternFile?.sha256.slice(0, 12) ?? 'none'}… (shards of different pattern files)`,
      );
    if (c.implementation.sha256 !== first.implementation.sha256) {
      throw new MergeError(
        `${file}: implementation sha256 ${c.implementation.sha256.slice(0, 12)}…, but ${inputs[0].file} has ${first.implementation.sha256.slice(0, 12)}… (shards of different code)`,
      );
    }
    if (c.seed !== first.seed)
      throw new MergeError(
        `${file}: seed ${c.seed}, but ${inputs[0].file} has ${first.seed} (shards must share one seed)`,
      );
    if (settingsOf(c) !== settingsOf(first)) {
      throw new MergeError(
        `${file}: settings ${settingsOf(c) || 'none'}, but ${inputs[0].file} has ${settingsOf(first) || 'none'} (shards of one budget share --set)`,
      );
    }
    if ((c.durability ?? 'none') !== (first.durability ?? 'none')) {
      throw new MergeError(
        `${file}: durability ${c.durability ?? 'none'}, but ${inputs[0].file} has ${first.durability ?? 'none'} (shards of one budget share --durability)`,
      );
    }
    if (c.shard.count !== first.shard!.count)
      throw new MergeError(
        `${file}: shard ${c.shard.index}/${c.shard.count}, but ${inputs[0].file} is one of ${first.shard!.count}`,
      );
    if (c.shard.plan !== first.shard!.plan)
      throw new MergeError(
        `${file}: shard ${c.shard.index}/${c.shard.count} ran '${c.shard.plan}', but ${inputs[0].file} '${first.shard!.plan}' (shards of one budget share every option)`,
      );
  }
  const count = first.shard!.count;
  const byIndex = new Map<number, string>();
  for (const { file, certificate: c } of inputs) {
    const seen = byIndex.get(c.shard!.index);
    if (seen) throw new MergeError(`${file}: shard ${c.shard!.index}/${count} given twice (also ${seen})`);
    byIndex.set(c.shard!.index, file);
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length)
    throw new MergeError(
      `shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} missing: ${inputs.length} of ${count} certificates given`,
    );

  const shards = [...inputs].sort((a, b) => a.certificate.shard!.index - b.certificate.shard!.index);
  const certs = shards.map((s) => s.certificate);
  const runs = sum(certs.map((c) => c.runs));
  const evidence = mergeEvidence(certs, runs);
  const findings = shards.flatMap(({ certificate: c }) =>
    c.findings.map((f) => `shard ${c.shard!.index}/${count}: ${f}`),
  );
  // A shard skips only the evidence; a shard cut short by a failure never had its whole budget, so
  // the budget's evidence is judged only when every shard ran clean, as one job does.
  const everyShardCertified = certs.every((c) => c.certified);
  if (everyShardCertified) findings.push(...evidence.missing.map((m) => `evidence: ${m}`));
  return {
    version: 1,
    certified: everyShardCertified && evidence.missing.length === 0,
    pattern: first.pattern,
    ...(first.patternFile ? { patternFile: first.patternFile } : {}),
    implementation: first.implementation,
    redis: first.redis,
    seed: first.seed,
    runs,
    discarded: {
      runs: sum(certs.map((c) => c.discarded?.runs ?? 0)),
      causes: certs.flatMap((c) => c.discarded?.causes ?? []),
    },
    operations: sum(certs.map((c) => c.operations)),
    faults: sumRecords(certs.map((c) => c.faults)),
    skippedFaults: [...new Set(certs.flatMap((c) => c.skippedFaults ?? []))],
    evidence,
    ...(first.durability ? { durability: first.durability } : {}),
    ...(first.settings ? { settings: first.settings } : {}),
    ...(first.capabilities ? { capabilities: first.capabilities } : {}),
    ...(first.variants ? { variants: first.variants } : {}),
    ...(first.keyMapping ? { keyMapping: first.keyMapping } : {}),
    invariants: mergeInvariants(certs),
    findings,
    replicationLosses: sum(certs.map((c) => c.replicationLosses)),
    // The shards share their plan (faults included), so the clocks they held under are the first's.
    ...(sum(certs.map((c) => c.clockLosses ?? 0)) ? { clockLosses: sum(certs.map((c) => c.clockLosses ?? 0)) } : {}),
    ...(first.clocks ? { clocks: first.clocks } : {}),
    ...(first.clientClocks ? { clientClocks: first.clientClocks } : {}),
    duplicateEffects: sumRecords(certs.map((c) => c.duplicateEffects ?? {})),
    duplicateFindings: shards.flatMap(({ certificate: c }) =>
      (c.duplicateFindings ?? []).map((f) => `shard ${c.shard!.index}/${count}: ${f}`),
    ),
    issuedAt,
    // The shards ran side by side: the merged job took as long as its slowest shard.
    seconds: Math.max(...certs.map((c) => c.seconds)),
    merged: {
      count,
      shards: shards.map(({ file, certificate: c }) => ({
        index: c.shard!.index,
        file,
        certified: c.certified,
        runs: c.runs,
        seconds: c.seconds,
      })),
    },
  };
}

/**
 * A shard's settings as one line, every one filled: a certificate written before settings existed
 * ran the defaults, so it merges with one that names them.
 */
function settingsOf(c: Certificate): string {
  if (!isPatternName(c.pattern)) return describeSettings(c.settings ?? {});
  try {
    return describeSettings(fillSettings(patternNamed(c.pattern), c.settings));
  } catch {
    // Settings this chaoslua does not know: compared as written.
    return describeSettings(c.settings ?? {});
  }
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function sumRecords(records: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) for (const [k, n] of Object.entries(r)) out[k] = (out[k] ?? 0) + n;
  return out;
}

function mergeInvariants(certs: readonly Certificate[]): Certificate['invariants'] {
  const names = [...new Set(certs.flatMap((c) => c.invariants.map((s) => s.invariant)))];
  return names.map((invariant) => {
    const parts = certs.flatMap((c) => c.invariants.filter((s) => s.invariant === invariant));
    // The shards open the same implementation, so they agree on what is applicable.
    const notApplicable = parts.find((s) => s.notApplicable !== undefined)?.notApplicable;
    return {
      invariant,
      passed: parts.every((s) => s.passed),
      ...(notApplicable ? { notApplicable } : {}),
      violations: parts.flatMap((s) => s.violations),
    };
  });
}

/** The evidence of all the shards' runs, judged as one job of that many runs judges its own (src/certify/evidence.ts). */
function mergeEvidence(certs: readonly Certificate[], runs: number): Evidence {
  const operations: Record<string, OperationCounts> = {};
  for (const c of certs) {
    for (const [op, o] of Object.entries(c.evidence?.operations ?? {})) {
      const t = operations[op] ?? { issued: 0, ok: 0, fail: 0, info: 0 };
      operations[op] = operationJson({
        op,
        issued: t.issued + o.issued,
        ok: t.ok + o.ok,
        fail: t.fail + o.fail,
        info: t.info + o.info,
      });
    }
  }
  const transitions = sumRecords(certs.map((c) => c.evidence?.transitions ?? {}));
  const minOk = minOkPerOperation(runs);
  const missing: string[] = [];
  const ok = sum(Object.values(operations).map((o) => o.ok));
  if (ok === 0) missing.push(`no operation succeeded: 0 of ${sum(Object.values(operations).map((o) => o.issued))} ok`);
  else {
    for (const [op, o] of Object.entries(operations)) {
      if (o.ok < minOk)
        missing.push(
          `${op} succeeded ${o.ok} time${o.ok === 1 ? '' : 's'} of ${o.issued}, fewer than the ${minOk} a certificate of ${runs} runs needs (one per ${1 / OK_PER_RUN} runs)`,
        );
    }
    for (const [t, n] of Object.entries(transitions))
      if (n === 0) missing.push(`transition ${t.replace(' → ', ' -> ')} never observed`);
  }
  return { minOkPerOperation: minOk, operations, transitions, missing };
}
