import { sleep, type StepContext } from '../../src/scenario/index.ts';
import { oneShotConnection, PingProbe, type ProbeReport } from './probe.ts';

/** How long the operator takes to react to BUSY with SCRIPT KILL. */
const OPERATOR_REACTION_MS = 250;
/** Harness-side loop for calibration: the broken script's work, uncapped. */
const CALIBRATE = 'local x = 0 for i = 1, tonumber(ARGV[1]) do x = (x * 31 + i) % 1000003 end return x';

export interface RunawayReport {
  readonly outcome: string;
  readonly ms: number;
  /** What SCRIPT KILL answered, sent once BUSY was seen (or once the call had returned). */
  readonly killReply: string;
  /** The script had to be ended with SHUTDOWN NOSAVE and the node restarted. */
  readonly hardEnded: boolean;
  readonly downMs: number | null;
  readonly probe: ProbeReport;
  readonly firstBusyAfterMs: number | null;
}

/** Loop iterations per ms on this machine now, so "400 ms of work" means 400 ms here: a rough pass, then one of ~150 ms. */
export async function calibrate(address: string): Promise<number> {
  const redis = oneShotConnection(address);
  try {
    await redis.connect();
    const timed = async (n: number) => {
      const started = performance.now();
      await redis.eval(CALIBRATE, 0, n);
      return n / Math.max(1, performance.now() - started);
    };
    const rough = await timed(1_000_000);
    return await timed(Math.round(rough * 150));
  } finally {
    redis.disconnect();
  }
}

export async function measure(
  address: string,
  body: string,
  iterations: number,
): Promise<{ scriptMs: number; probe: ProbeReport }> {
  const probe = await new PingProbe(oneShotConnection(address)).start();
  const redis = oneShotConnection(address);
  try {
    await redis.connect();
    await sleep(100);
    const started = performance.now();
    await redis.eval(body, 0, iterations);
    const scriptMs = Math.round((performance.now() - started) * 10) / 10;
    await sleep(100);
    return { scriptMs, probe: await probe.stop() };
  } finally {
    redis.disconnect();
    await probe.stop();
  }
}

/** Start the script, wait for BUSY (or its answer), send SCRIPT KILL; if it is still running after that, SHUTDOWN NOSAVE and restart the node. */
export async function runaway(
  ctx: StepContext,
  node: number,
  body: string,
  keys: string[],
  iterations: number,
  luaTimeLimitMs: number,
): Promise<RunawayReport> {
  const address = ctx.cluster.nodes[node].client;
  const probe = await new PingProbe(oneShotConnection(address)).start();
  const redis = oneShotConnection(address);
  // The operator's connection is opened beforehand: a new connection's handshake would wait out the script.
  const operator = oneShotConnection(ctx.cluster.nodes[node].direct);
  await Promise.all([redis.connect(), operator.connect()]);
  await sleep(50);
  const started = performance.now();
  let settled = false;
  const call = redis
    .eval(body, keys.length, ...keys, iterations)
    .then(
      (reply) => `returned ${reply}`,
      (error: Error) => `error: ${error.message.split(' script:')[0]}`,
    )
    .finally(() => (settled = true));
  const deadline = started + luaTimeLimitMs + 10_000;
  while (!settled && probe.firstBusyAt === undefined && performance.now() < deadline) await sleep(5);
  const firstBusyAfterMs = probe.firstBusyAt === undefined ? null : Math.round(probe.firstBusyAt - started);
  if (firstBusyAfterMs !== null) {
    ctx.say(`other clients get BUSY ${firstBusyAfterMs} ms after the script started`);
    await sleep(OPERATOR_REACTION_MS);
  }
  const killReply = await operator.script('KILL').then(String, (error: Error) => error.message);
  ctx.say(`SCRIPT KILL -> ${killReply.split(' You can')[0].split('. ')[0]}`);
  // A killed script ends at its next check; an UNKILLABLE one will not end soon, whatever we wait.
  if (!killReply.startsWith('UNKILLABLE')) await Promise.race([call, sleep(3_000)]);
  let hardEnded = false;
  let downMs: number | null = null;
  let report: ProbeReport;
  if (!settled) {
    report = await probe.stop();
    hardEnded = true;
    const down = performance.now();
    ctx.say(`still running: SHUTDOWN NOSAVE on n${node}, then restart it`);
    await operator.shutdown('NOSAVE').catch(() => undefined);
    await call;
    await ctx.cluster.restart(node);
    await ctx.cluster.waitReady();
    downMs = Math.round(performance.now() - down);
    ctx.say(`n${node} back and the cluster ready after ${downMs} ms`);
  } else report = await probe.stop();
  const outcome = await call;
  const ms = Math.round(performance.now() - started);
  redis.disconnect();
  operator.disconnect();
  ctx.say(
    `the script's caller: ${outcome} after ${ms} ms; probe: ${report.busy} BUSY replies, max PING ${report.maxMs} ms`,
  );
  return { outcome, ms, killReply, hardEnded, downMs, probe: report, firstBusyAfterMs };
}
