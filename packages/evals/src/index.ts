// Public API of @toolsmith/evals: evaluation sets (expected tool trajectories and answers), run against an
// agent N times with a pass threshold, their report, ADK's eval set format, and cases recorded from sessions.

// ── Eval sets ───────────────────────────────────────────────────────────────────────────────────
export type { AnswerExpectation, ArgumentMatcher, EvalCase, EvalSet, EvalTurn, ExpectedCall, TrajectoryExpectation, TrajectoryMatch } from './eval-set';
export { checkEvalSet } from './check-eval-set';
export { readEvalSetFile } from './read-eval-set-file';
export type { ReadEvalSetFileOptions } from './read-eval-set-file';

// ── Running and reporting ───────────────────────────────────────────────────────────────────────
export { runEvalSet } from './run-eval-set';
export { MAX_EVAL_RUNS } from './max-eval-runs';
export type { RunEvalSetOptions } from './run-eval-set';
export { expectEvalSet } from './expect-eval-set';
export type { CaseReport, EvalReport, RunReport, TurnReport } from './eval-report';
export { formatEvalReport } from './format-eval-report';
export { matchTrajectory } from './match-trajectory';
export type { TrajectoryDiffLine, TrajectoryResult } from './match-trajectory';
export type { ActualCall } from './match-call';
export type { CallFailure } from './call-failure';
export { matchAnswer } from './match-answer';
export type { ActualAnswer, AnswerResult } from './match-answer';
export { JUDGE_PROMPT, judgeAnswer } from './judge-answer';
export type { JudgeVerdict } from './judge-answer';

// ── ADK's format, and cases recorded from sessions ──────────────────────────────────────────────
export { fromAdkEvalSet, toAdkEvalSet } from './adk-evalset';
export type { AdkContent, AdkEvalSet, AdkInvocation, FromAdkEvalSetOptions } from './adk-evalset';
export { evalCaseFromSession } from './eval-case-from-session';
export type { EvalCaseFromSessionOptions } from './eval-case-from-session';

// ── Errors ──────────────────────────────────────────────────────────────────────────────────────
export { EvalSetError } from './eval-set-error';
export { EVALS_ERROR_CODES } from './evals-error-codes';
export type { EvalsErrorCode } from './evals-error-codes';
