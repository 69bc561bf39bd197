import type { ActualCall } from './match-call';
import type { AnswerResult } from './match-answer';
import type { TrajectoryResult } from './match-trajectory';

/** What one turn of one run did, and how it compared with its expectations. */
export interface TurnReport {
  /** The turn's position in the case, from 0. */
  index: number;
  /** The user's message as text (its text parts joined). */
  user: string;
  /** The turn passed: every check passed, and the run neither failed nor paused. */
  pass: boolean;
  /** Every tool call the turn's model responses made (all agents), in order. */
  calls: ActualCall[];
  /** The turn's final answer text; absent when it gave none. */
  answer?: string;
  /** The structured output of the turn's final answer (an agent with `outputSchema`). */
  output?: unknown;
  /** The trajectory check; absent when the turn expects none. */
  trajectory?: TrajectoryResult;
  /** The answer check; absent when the turn expects none. */
  answerCheck?: AnswerResult;
  /** The run's error event (`errorCode`, `errorMessage`) when the turn ended with one. */
  error?: { code: string; message: string };
  /** The calls the run paused on (confirmations, long-running calls): an eval turn cannot answer them. */
  pausedOn?: string[];
}

/** One run of a case. */
export interface RunReport {
  /** Which run, from 1. */
  run: number;
  /** Every turn passed. */
  pass: boolean;
  /** The session the run used (in the runner's session store). */
  sessionId: string;
  /** The turns run; a run stops after a turn that failed with an error or paused. */
  turns: TurnReport[];
}

/** One case: its runs and whether enough of them passed. */
export interface CaseReport {
  /** The case's id. */
  id: string;
  /** `passedRuns / runs` reached `threshold`. */
  pass: boolean;
  /** How many times it ran. */
  runs: number;
  /** How many runs passed. */
  passedRuns: number;
  /** The share of runs that had to pass. */
  threshold: number;
  /** Each run. */
  results: RunReport[];
}

/** The result of {@link runEvalSet}: every case, and whether all passed. */
export interface EvalReport {
  /** The set's id. */
  setId: string;
  /** The set's name, when it has one. */
  name?: string;
  /** Every case passed. */
  pass: boolean;
  /** How many cases passed. */
  passedCases: number;
  /** The cases, in the set's order. */
  cases: CaseReport[];
}
