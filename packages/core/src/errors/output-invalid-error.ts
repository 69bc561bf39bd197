import type { ArgumentProblem } from './tool-call-errors';
import { outputInvalidMessage } from './messages';
import { ToolsmithError } from './toolsmith-error';

/**
 * An agent with an `outputSchema` answered with something that is not JSON or does not match the
 * schema; `problems` lists each mismatch at its path. The model is told the same, to answer again.
 */
export class OutputInvalidError extends ToolsmithError {
  constructor(
    agentName: string,
    /** Each mismatch of the answer, at its JSON pointer (also in `details.problems`). */
    readonly problems: readonly ArgumentProblem[],
  ) {
    super(
      'OUTPUT_INVALID',
      outputInvalidMessage(
        agentName,
        problems.map((problem) => problem.message),
      ),
      { details: { problems } },
    );
  }
}
