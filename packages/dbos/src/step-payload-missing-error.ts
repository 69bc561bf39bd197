import { ToolsmithError } from '@toolsmith/core';

/** A replayed step's output was saved as an artifact (it was large), and that artifact version is gone. */
export class StepPayloadMissingError extends ToolsmithError<'DURABLE_PAYLOAD_MISSING'> {
  constructor(
    /** The artifact's filename. */
    readonly filename: string,
    /** The artifact's version. */
    readonly version: number,
  ) {
    super('DURABLE_PAYLOAD_MISSING', `The step output saved as artifact "${filename}" version ${version} is gone: the run cannot be replayed past that step.`);
  }
}
