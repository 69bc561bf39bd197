// Every message @toolsmith/evals builds, in one place.

/** `EVAL_SET_INVALID`: each problem on its own line, with where it is (`cases[0].turns[1].tools.match`). */
export function invalidEvalSetMessage(source: string, problems: readonly string[]): string {
  return `${source} is not a valid eval set:\n${problems.map((p) => `  - ${p}`).join('\n')}`;
}

/** `EVAL_SET_INVALID`: the problem of a file in ADK's older `.test.json` format: what it is, and how to migrate it. */
export const OLD_ADK_FORMAT =
  "it is ADK's older .test.json format (a list of queries), which is not read: migrate it to an eval set with ADK first " +
  "(python -c \"from google.adk.evaluation.agent_evaluator import AgentEvaluator; AgentEvaluator.migrate_eval_data_to_new_schema('old.test.json', 'new.test.json')\"), then read the new file";

/** `EVAL_JUDGE_MISSING`: which cases need the judge. */
export function judgeMissingMessage(caseIds: readonly string[]): string {
  if (caseIds.length === 0) return 'A judged answer was expected, but no judge model was given: pass judgeModel.';
  return (
    `Case${caseIds.length > 1 ? 's' : ''} ${caseIds.join(', ')} expect${caseIds.length > 1 ? '' : 's'} a judged answer, but no judge model was given. ` +
    'Pass judgeModel to runEvalSet (with toolsmith eval: export judgeModel from the agent or eval set module).'
  );
}

/** `EVAL_SET_NOT_FOUND`: the file and why it cannot be read. */
export function evalSetNotFoundMessage(file: string, reason: string): string {
  return `Cannot read the eval set ${file}: ${reason}`;
}

/** `EVAL_SET_UNSUPPORTED` when reading an ADK file: the case and what it holds. */
export function adkCaseUnsupportedMessage(caseId: string, what: string): string {
  return `ADK eval case ${caseId} holds ${what}, which Toolsmith cannot run. Only cases with a static conversation can be read.`;
}

/** `EVAL_SET_UNSUPPORTED` when writing an ADK file: the place and the expectation ADK's format cannot hold. */
export function adkExpectationUnsupportedMessage(place: string, what: string): string {
  return (
    `${place} expects ${what}, which ADK's eval set format cannot hold (it holds the expected calls with their exact ` +
    'arguments and the expected final answer text). Keep this set in Toolsmith\'s own JSON format.'
  );
}

/** `EVAL_SET_FAILED`: the failing cases, then the whole report. */
export function evalSetFailedMessage(failed: readonly string[], report: string): string {
  return `Eval set failed: ${failed.length} case${failed.length === 1 ? '' : 's'} below threshold (${failed.join(', ')}).\n\n${report}`;
}

/** `EVAL_SET_INVALID` from `matchAnswer` (and the set check): an answer's JSON Schema that cannot be compiled, and why. */
export function answerSchemaInvalidMessage(reason: string): string {
  return `The answer schema is not a valid JSON Schema: ${reason}`;
}

/** `EVAL_SET_INVALID`: an answer `{ pattern: RegExp, flags }`, whose flags would be ignored. */
export function patternFlagsProblem(): string {
  return 'cannot be given with a RegExp pattern (its own flags are used): write them in the RegExp (/…/i), or give the pattern as a string';
}
