// @toolsmith/dbos: durable runs on DBOS (PostgreSQL). See docs/durable.md.
export { DurableRunner, durableWorkflowId, registerRunQueue } from './durable-runner';
export type { DurableRunInput, DurableRunResult, DurableRunnerOptions, RunQueueOptions } from './durable-runner';
export { DURABLE_STEP_NAMES } from './step-names';
export { WorkerPool } from './worker-pool';
export type { WorkerPoolOptions } from './worker-pool';
export { DURABLE_WAIT_NAMES } from './durable-waits';
export { StepPayloadMissingError } from './step-payload-missing-error';
export { RunSupersededError } from './run-superseded-error';
