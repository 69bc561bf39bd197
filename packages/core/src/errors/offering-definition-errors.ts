import type { DefinitionSite } from './messages';
import { ToolDefinitionError } from './tool-definition-errors';

/** The codes of {@link OfferingDefinitionError}. */
export type OfferingDefinitionErrorCode =
  | 'INVALID_RESOURCE_URI'
  | 'INVALID_URI_TEMPLATE'
  | 'DUPLICATE_RESOURCE_URI'
  | 'INVALID_PROMPT'
  | 'DUPLICATE_PROMPT_NAME'
  | 'INVALID_COMPLETION_TARGET';

/**
 * A resource, resource template, prompt or completion is defined in a way that cannot be served (a bad
 * URI or template, a name used twice, a completion of nothing). Thrown at startup, never during a request.
 */
export class OfferingDefinitionError extends ToolDefinitionError {
  /** What is wrong. */
  declare readonly code: OfferingDefinitionErrorCode;

  constructor(code: OfferingDefinitionErrorCode, message: string, site: DefinitionSite) {
    super(code, message, site);
  }
}
