import type { CaseReport, EvalReport, TurnReport } from './eval-report';
import type { TrajectoryDiffLine } from './match-trajectory';

/**
 * The report as text for people: a line per case (runs passed, threshold), and for each failing run the
 * turns that failed, with their trajectory diff (`✓` matched, `✗` missing, unexpected or different,
 * `·` allowed extras), the answer check and any error or pause; then the total.
 *
 * @example
 * ```text
 * ✗ refund  0/1 runs passed (threshold 100%)
 *     run 1
 *       turn 1 "Refund order A-1"
 *         tools (exact)
 *           ✓ lookupOrder(orderId: "A-1")
 *           ✗ refund(orderId: "A-1", …) ≠ refund({"orderId":"A-2"}): args.orderId: "A-2" does not match "A-1"
 * ```
 */
export function formatEvalReport(report: EvalReport): string {
  const lines = [`Eval set ${report.name ?? report.setId}: ${report.cases.length} case${report.cases.length === 1 ? '' : 's'}`];
  for (const evalCase of report.cases) lines.push(...caseLines(evalCase));
  lines.push(`${report.passedCases} of ${report.cases.length} case${report.cases.length === 1 ? '' : 's'} passed.`);
  return `${lines.join('\n')}\n`;
}

function caseLines(evalCase: CaseReport): string[] {
  const lines = [`${evalCase.pass ? '✓' : '✗'} ${evalCase.id}  ${evalCase.passedRuns}/${evalCase.runs} runs passed (threshold ${Math.round(evalCase.threshold * 100)}%)`];
  for (const run of evalCase.results) {
    if (run.pass) continue;
    lines.push(`    run ${run.run}`);
    for (const turn of run.turns) if (!turn.pass) lines.push(...turnLines(turn));
  }
  return lines;
}

function turnLines(turn: TurnReport): string[] {
  const lines = [`      turn ${turn.index + 1} ${JSON.stringify(turn.user)}`];
  if (turn.trajectory) {
    lines.push(`        tools (${turn.trajectory.match})${turn.trajectory.diff.length === 0 ? ': no calls expected, none made' : ''}`);
    for (const line of turn.trajectory.diff) lines.push(`          ${diffLine(line)}`);
  }
  if (turn.answerCheck) {
    const check = turn.answerCheck;
    lines.push(`        answer ${check.expected}: ${check.pass ? '✓' : '✗'}${check.detail ? ` ${check.detail}` : ''}`);
  }
  if (turn.error) lines.push(`        error ${turn.error.code}: ${turn.error.message}`);
  if (turn.pausedOn) lines.push(`        paused on ${turn.pausedOn.join(', ')} (an eval turn cannot answer it)`);
  return lines;
}

/** One diff line as the report writes it. */
export function diffLine(line: TrajectoryDiffLine): string {
  switch (line.kind) {
    case 'match':
      return `✓ ${line.actual}`;
    case 'mismatch':
      return `✗ ${line.expected} ≠ ${line.actual}: ${(line.problems ?? []).join('; ')}`;
    case 'missing':
      return `✗ missing ${line.expected}`;
    case 'unexpected':
      return `✗ unexpected ${line.actual}`;
    case 'extra':
      return `· also called ${line.actual}`;
    case 'notCalled':
      return `· not called ${line.expected}`;
  }
}
