import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { lintPath } from '../../src/lint/index.ts';
import { keySlot } from '../../src/resp/key-slot.ts';
import { scopedKey } from '../../src/patterns/idempotency/keys.ts';
import { withConnection, type Scenario, type StepContext, type Variant } from '../../src/scenario/index.ts';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const TENANTS = 12;

export interface UndeclaredKeyObservations {
  readonly script: string;
  readonly lintFindings: string[];
  readonly calls: number;
  readonly ok: number;
  /** Calls Redis refused because the script touched a key in a slot this node does not serve. */
  readonly nonLocalErrors: number;
  readonly errorSample: string | null;
  /** Calls that errored after their HSET was applied: a script is atomic, not transactional. */
  readonly recordsLeftByFailedCalls: number;
  /** Calls that succeeded but wrote a key outside KEYS[1]'s slot (same node, other slot: accepted silently). */
  readonly undeclaredSlotWrites: number;
  /** Audit entries found where the script was supposed to put them. */
  readonly auditEntries: number;
}

/** The audit list each variant names: built from ARGV (broken) or passed as KEYS[2] under the record's tag (remediated). */
type AuditPlacement = (recordKey: string, tenant: string) => { keys: string[]; args: string[]; auditKey: string };

function variant(label: string, file: string, placement: AuditPlacement): Variant<UndeclaredKeyObservations> {
  return { label, source: path.relative(process.cwd(), here(file)), run: (ctx) => trial(ctx, here(file), placement) };
}

async function trial(ctx: StepContext, file: string, placement: AuditPlacement): Promise<UndeclaredKeyObservations> {
  const lintFindings = (await lintPath(file))
    .filter((f) => f.rule === 'undeclared-key')
    .map((f) => `${path.basename(f.file)}:${f.line}:${f.column} ${f.message}`);
  ctx.say(`lint: ${lintFindings.length === 0 ? 'no undeclared-key finding' : lintFindings.join('; ')}`);
  const body = readFileSync(file, 'utf8');
  return withConnection(ctx.cluster, async (redis) => {
    let ok = 0,
      nonLocalErrors = 0,
      recordsLeftByFailedCalls = 0,
      undeclaredSlotWrites = 0,
      auditEntries = 0;
    let errorSample: string | null = null;
    const written: string[] = [];
    for (let t = 0; t < TENANTS; t++) {
      const tenant = `${ctx.namespace}-tenant${t}`;
      const recordKey = scopedKey(tenant, 'POST/v1/charges', 'req-1');
      const { keys, args, auditKey } = placement(recordKey, tenant);
      written.push(recordKey, auditKey);
      try {
        await redis.eval(body, keys.length, ...keys, 'fp', `owner-${t}`, 60_000, ...args);
        ok++;
        if (keySlot(auditKey) !== keySlot(recordKey)) undeclaredSlotWrites++;
        auditEntries += await redis.llen(auditKey);
      } catch (error) {
        const message = (error as Error).message;
        if (/non local key|CROSSSLOT|do not hash to the same slot/i.test(message)) nonLocalErrors++;
        errorSample ??= message;
        if ((await redis.exists(recordKey)) === 1) recordsLeftByFailedCalls++;
      }
    }
    ctx.say(
      `${TENANTS} registrations with audit: ${ok} ok, ${nonLocalErrors} refused by the cluster${errorSample ? ` (${errorSample.split(' script:')[0]})` : ''}`,
    );
    if (recordsLeftByFailedCalls > 0)
      ctx.say(
        `${recordsLeftByFailedCalls} refused calls still left their pending record behind: the HSET ran before the error`,
      );
    if (undeclaredSlotWrites > 0)
      ctx.say(
        `${undeclaredSlotWrites} calls "succeeded" only because the audit key happened to hash to another slot of the same node`,
      );
    for (const key of written) await redis.del(key).catch(() => undefined);
    return {
      script: path.basename(file),
      lintFindings,
      calls: TENANTS,
      ok,
      nonLocalErrors,
      errorSample,
      recordsLeftByFailedCalls,
      undeclaredSlotWrites,
      auditEntries,
    };
  });
}

export const undeclaredKey: Scenario<UndeclaredKeyObservations> = {
  name: 'undeclared-key',
  title: 'a script writes a key it built from ARGV instead of receiving it in KEYS',
  row: 'failure table, idempotency store: a script touches a key it assembled itself rather than one declared in KEYS, so the cluster cannot route it',
  cluster: { masters: 3, replicasPerMaster: 0 },
  fault: 'none beyond the cluster itself: 12 tenants register once each on a 3-master cluster',
  observe:
    "non-local-key errors from the cluster, a pending record left behind by each failed call, and the linter's undeclared-key finding",
  metric: 'redis_cluster_crossslot_errors_total',
  broken: variant('audit list named from ARGV inside the script', 'register-audit.broken.lua', (recordKey, tenant) => ({
    keys: [recordKey],
    args: [tenant],
    auditKey: `idem:v1:audit:${tenant}`,
  })),
  remediated: variant("audit list passed as KEYS[2] with the record's hash tag", 'register-audit.lua', (recordKey) => ({
    keys: [recordKey, recordKey.replace('idem:v1:', 'idem:v1:audit:')],
    args: [],
    auditKey: recordKey.replace('idem:v1:', 'idem:v1:audit:'),
  })),
  judge(o) {
    const held =
      o.nonLocalErrors === 0 &&
      o.ok === o.calls &&
      o.undeclaredSlotWrites === 0 &&
      o.auditEntries === o.calls &&
      o.lintFindings.length === 0;
    return {
      held,
      why: `${o.ok}/${o.calls} calls ok, ${o.nonLocalErrors} cluster errors, ${o.undeclaredSlotWrites} writes outside the declared slot, ${o.auditEntries} audit entries, ${o.lintFindings.length} undeclared-key lint findings`,
    };
  },
  documented(o) {
    const missing: string[] = [];
    if (o.nonLocalErrors === 0) missing.push('no call was refused with a non-local/cross-slot key error');
    if (o.lintFindings.length === 0) missing.push('the linter did not report undeclared-key');
    if (o.recordsLeftByFailedCalls !== o.nonLocalErrors)
      missing.push(
        `only ${o.recordsLeftByFailedCalls} of ${o.nonLocalErrors} refused calls left their pending record behind`,
      );
    return missing;
  },
  metricValue: (o) => o.nonLocalErrors,
  notes: [
    'redis_cluster_crossslot_errors_total is counted by the scenario: the reference client never sends such a script, so it exports no such counter; `chaoslua lint` is the gate that catches it before deploy.',
    'On Redis 7.0 an undeclared key that lands in another slot of the same node is accepted silently; it is wrong all the same (it breaks on resharding).',
  ],
};
