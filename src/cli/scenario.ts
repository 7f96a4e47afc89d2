import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../cluster/binaries.ts';
import { parse } from './args.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { helpFooter } from './help.ts';
import { printable } from './printable.ts';
import { checkReportDir } from './out-file.ts';
import { processIo, type Io } from './io.ts';
import { createRunFolder, writeJson } from '../report/folder.ts';
import { ClusterPool, runScenarios, type AnyScenario, type ScenarioResult } from '../scenario/index.ts';

export const summary =
  'reproduce a known failure of a pattern (its failure table): broken variant vs remediation, on a real cluster';

export const FLAGS = {
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  report: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const HELP = `usage: chaoslua scenario list
       chaoslua scenario run NAME [--json] [--report DIR]
       chaoslua scenario run --all [--json] [--report DIR]

Each scenario runs a broken variant and its remediation through the same fault schedule on a
local cluster, narrating what fires, what was observed and which SRE metric would have alerted.

options:
  --all         run every scenario (default: off)
  --json        print the results as JSON on stdout, the narrative on stderr (default: off)
  --report DIR  where the run folder goes (default reports/)
  -h, --help    this text

exit codes: 0 every scenario behaved as documented, 1 one did not, 2 usage error, 3 environment failure
${helpFooter('scenario')}`;

/**
 * The catalogue lives under scenarios/, next to the scripts it runs, and builds on src (as an --impl
 * module does): it is loaded by path when needed, so src never depends on it.
 */
async function catalogue(): Promise<readonly AnyScenario[]> {
  // TypeScript in a checkout (run through tsx), compiled JavaScript in the package's dist/.
  const file = ['catalogue.ts', 'catalogue.js']
    .map((name) => path.join(projectRoot, 'scenarios', name))
    .find((f) => fs.existsSync(f));
  if (!file) throw new Error(`the scenario catalogue is missing from ${path.join(projectRoot, 'scenarios')}`);
  const { SCENARIOS } = (await import(pathToFileURL(file).href)) as { SCENARIOS: readonly AnyScenario[] };
  return SCENARIOS;
}

function listText(scenarios: readonly AnyScenario[]): string {
  const width = Math.max(...scenarios.map((s) => s.name.length));
  return (
    scenarios.map((s) => `${s.name.padEnd(width)}  ${s.title}\n${' '.repeat(width)}  (${s.row})`).join('\n') + '\n'
  );
}

async function select(positionals: string[], all: boolean): Promise<readonly AnyScenario[]> {
  const scenarios = await catalogue();
  if (all) {
    if (positionals.length > 0) throw new UsageError('scenario run: give a NAME or --all, not both');
    return scenarios;
  }
  if (positionals.length !== 1)
    throw new UsageError('scenario run: give one scenario NAME, or --all (see chaoslua scenario list)');
  const chosen = scenarios.find((s) => s.name === positionals[0]);
  if (!chosen)
    throw new UsageError(
      `scenario run: unknown scenario '${positionals[0]}' (known: ${scenarios.map((s) => s.name).join(', ')})`,
    );
  return [chosen];
}

export async function run(argv: string[], io: Io = processIo): Promise<number> {
  try {
    const { values, positionals } = parse('scenario', argv, FLAGS, true);
    const [sub, ...rest] = positionals;
    if (values.help) {
      io.stdout.write(HELP);
      return EXIT.ok;
    }
    if (sub === 'list') {
      if (rest.length > 0 || values.all || values.json || values.report !== undefined)
        throw new UsageError('scenario list takes no arguments');
      io.stdout.write(listText(await catalogue()));
      return EXIT.ok;
    }
    if (sub !== 'run')
      throw new UsageError(
        sub === undefined
          ? 'scenario: say list or run (see chaoslua scenario --help)'
          : `scenario: unknown subcommand '${sub}' (list or run)`,
      );
    const reportRoot = checkReportDir('scenario run', values.report ?? 'reports');
    const scenarios = await select(rest, values.all ?? false);
    return await execute(scenarios, values.json ?? false, reportRoot, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`chaoslua ${printable(error.message)}\n`);
    return EXIT.usage;
  }
}

async function execute(scenarios: readonly AnyScenario[], json: boolean, reportRoot: string, io: Io): Promise<number> {
  const seed = Math.floor(Math.random() * 1e6);
  const narrate = json ? io.stderr : io.stdout;
  const pool = new ClusterPool();
  let results: ScenarioResult[];
  try {
    results = await runScenarios(scenarios, { pool, seed, say: (line) => narrate.write(`${line}\n`) });
  } finally {
    await pool.dispose();
  }
  const dir = createRunFolder(
    reportRoot,
    scenarios.length === 1 ? `scenario-${scenarios[0].name}` : 'scenario-all',
    seed,
  );
  for (const result of results) writeJson(dir, `${result.name}.json`, result);
  const passed = results.every((r) => r.passed);
  const summaryJson = {
    command: 'scenario',
    passed,
    seed,
    report: dir,
    scenarios: results.map((r) => ({ name: r.name, passed: r.passed, problems: r.problems })),
  };
  writeJson(dir, 'summary.json', summaryJson);
  if (json) io.stdout.write(`${JSON.stringify({ ...summaryJson, results }, null, 2)}\n`);
  else {
    io.stdout.write(
      `\nchaoslua scenario: ${results.filter((r) => r.passed).length}/${results.length} behaved as documented\n`,
    );
    for (const r of results)
      io.stdout.write(`  ${r.passed ? 'ok  ' : 'FAIL'} ${r.name}${r.passed ? '' : `: ${r.problems[0]}`}\n`);
    io.stdout.write(`  report: ${dir}\n`);
  }
  return passed ? EXIT.ok : EXIT.failed;
}
