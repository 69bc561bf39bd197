import { statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import type { Model } from '@toolsmith/core';
import type { EvalSet, RunReport } from '@toolsmith/evals';
import { CliUsageError } from '../cli-errors';
import type { CliIo } from '../cli-io';
import { EXIT_OK, EXIT_STALE } from '../exit-codes';

/** Usage text of `toolsmith eval`. */
export const EVAL_USAGE = `Usage: toolsmith eval <evalset> [--agent <module>] [--json] [--runs <n>] [--threshold <0..1>] [--adk-answers ignore] [--manifest <file>]

Runs an eval set against an agent and reports each case: the runs that passed, and for each failing
run the turns that failed with their tool-call diff. Exits with 1 when a case passed in fewer runs
than its threshold asks, 0 when every case passed, 2 when the set or the agent cannot be used.

<evalset> is a JSON file (Toolsmith's format, or ADK's .evalset.json / .test.json) or a module that
exports \`evalSet\` (or a default export). The agent is the module's (as for toolsmith run), else
--agent's. A \`judgeModel\` export of either module grades judged answers.

Options:
  --agent <module>     the module that exports the agent (default: the eval set module)
  --json               print the report as JSON on stdout (progress still goes to stderr)
  --runs <n>           run every case n times, a whole number from 1 to 1000 (overrides the set and its cases)
  --threshold <0..1>   the share of runs each case must pass, a number from 0 to 1 (overrides the set and its cases)
  --adk-answers ignore leave out the final answers of an ADK file (ADK compares them by similarity)
  --manifest <file>    the build-time manifest to scan with (default: found from the module's directory)
`;

/** Options of `toolsmith eval`, parsed from the command line. */
export interface EvalCommandOptions {
  evalSet: string;
  agent?: string;
  json: boolean;
  runs?: number;
  threshold?: number;
  adkAnswers?: 'ignore';
  manifest?: string;
}

/** Parses `toolsmith eval`'s arguments; throws {@link CliUsageError}. */
export function parseEvalArgs(argv: readonly string[]): EvalCommandOptions {
  const rest = [...argv];
  const value = (flag: string): string | undefined => {
    const at = rest.indexOf(flag);
    if (at < 0) return undefined;
    const found = rest[at + 1];
    if (found === undefined || found.startsWith('--')) throw new CliUsageError(`${flag} needs a value.\n\n${EVAL_USAGE}`);
    rest.splice(at, 2);
    if (rest.includes(flag)) throw new CliUsageError(`${flag} is given twice.\n\n${EVAL_USAGE}`);
    return found;
  };
  const agent = value('--agent');
  const runs = value('--runs');
  const threshold = value('--threshold');
  const adkAnswers = value('--adk-answers');
  const manifest = value('--manifest');
  const jsonAt = rest.indexOf('--json');
  if (jsonAt >= 0) rest.splice(jsonAt, 1);
  if (rest.includes('--json')) throw new CliUsageError(`--json is given twice.\n\n${EVAL_USAGE}`);
  const unknown = rest.find((arg) => arg.startsWith('-'));
  if (unknown) throw new CliUsageError(`Unknown option ${unknown} for toolsmith eval.\n\n${EVAL_USAGE}`);
  if (rest.length !== 1) throw new CliUsageError(`toolsmith eval needs exactly one eval set.\n\n${EVAL_USAGE}`);
  if (runs !== undefined) {
    // The set check's own bound: one constant for the set's runs and this option (docs/evals.md).
    const { MAX_EVAL_RUNS } = require('@toolsmith/evals') as typeof import('@toolsmith/evals');
    if (!/^[1-9]\d*$/.test(runs) || Number(runs) > MAX_EVAL_RUNS) throw new CliUsageError(`--runs must be a whole number from 1 to ${MAX_EVAL_RUNS}, not ${runs}.\n\n${EVAL_USAGE}`);
  }
  if (threshold !== undefined && !(/^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(threshold) && Number(threshold) <= 1)) throw new CliUsageError(`--threshold must be a number from 0 to 1, not ${threshold}.\n\n${EVAL_USAGE}`);
  if (adkAnswers !== undefined && adkAnswers !== 'ignore') throw new CliUsageError(`--adk-answers takes only "ignore", not ${adkAnswers}.`);
  return {
    evalSet: rest[0],
    json: jsonAt >= 0,
    ...(agent ? { agent } : {}),
    ...(runs ? { runs: Number(runs) } : {}),
    ...(threshold ? { threshold: Number(threshold) } : {}),
    ...(adkAnswers ? { adkAnswers: 'ignore' as const } : {}),
    ...(manifest ? { manifest } : {}),
  };
}

/**
 * Runs the eval set against the agent, printing a line per finished run on stderr and the report on
 * stdout (text, or JSON with `--json`). Resolves with 0 when every case passed, 1 when one did not.
 */
export async function runEvalCommand(options: EvalCommandOptions, io: CliIo): Promise<number> {
  const evals = require('@toolsmith/evals') as typeof import('@toolsmith/evals');
  const devtools = require('@toolsmith/devtools') as typeof import('@toolsmith/devtools');
  const setFile = resolve(io.cwd, options.evalSet);
  const isJson = extname(setFile) === '.json';
  // A module set that is also the agent module is loaded as one first (its manifest, its TypeScript); a
  // set that is no file is left to readEvalSetFile, which says so (EVAL_SET_NOT_FOUND).
  if (!isJson && !options.agent && statSync(setFile, { throwIfNoEntry: false })?.isFile()) devtools.loadAgentModule(setFile, { cwd: io.cwd, ...(options.manifest ? { manifest: options.manifest } : {}) });
  const set = evals.readEvalSetFile(setFile, options.adkAnswers ? { adkAnswers: options.adkAnswers } : {});
  const setExports = isJson ? {} : (require(setFile) as Record<string, unknown>);
  const agentFile = options.agent ?? (isJson ? undefined : options.evalSet);
  if (!agentFile) throw new CliUsageError(`${options.evalSet} is a JSON eval set: say which agent to run with --agent <module>.\n\n${EVAL_USAGE}`);
  const agentModule = devtools.loadAgentModule(agentFile, { cwd: io.cwd, ...(options.manifest ? { manifest: options.manifest } : {}) });
  const agentExports = require(agentModule.file) as Record<string, unknown>;
  const judgeModel = (agentExports.judgeModel ?? setExports.judgeModel) as Model | undefined;
  const overridden: EvalSet = {
    ...set,
    ...(options.runs ? { runs: options.runs } : {}),
    ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
    cases: set.cases.map((c) => {
      const copy = { ...c };
      if (options.runs) delete copy.runs;
      if (options.threshold !== undefined) delete copy.threshold;
      return copy;
    }),
  };
  const report = await evals.runEvalSet(overridden, {
    agent: agentModule.agent,
    appName: agentModule.appName,
    providers: agentModule.providers,
    ...(agentModule.plugins ? { plugins: agentModule.plugins } : {}),
    ...(judgeModel ? { judgeModel } : {}),
    onRun: (caseId: string, run: RunReport) => io.stderr.write(`${run.pass ? '✓' : '✗'} ${caseId} run ${run.run}\n`),
  });
  io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : evals.formatEvalReport(report));
  return report.pass ? EXIT_OK : EXIT_STALE;
}
