// @toolsmith/dbos: durable runs on DBOS (PostgreSQL). See docs/durable.md.
export { DurableRunner, durableWorkflowId } from './durable-runner';
export type { DurableRunInput, DurableRunResult, DurableRunnerOptions } from './durable-runner';
export { DURABLE_STEP_NAMES } from './step-names';
