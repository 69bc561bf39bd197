import { type DefinitionSite, reservedToolNameMessage } from '../errors/messages';
import { InvalidToolNameError } from '../errors/tool-definition-errors';

/** What every provider accepts as a function name. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The names of the runner's pause requests (REQUEST_CONFIRMATION, REQUEST_CREDENTIAL; spelled out: confirmation imports scanning). */
const PAUSE_REQUEST_NAMES: ReadonlySet<string> = new Set(['toolsmith_request_confirmation', 'toolsmith_request_credential']);

/**
 * Throws {@link InvalidToolNameError} unless `name` matches `^[a-zA-Z0-9_-]{1,64}$` and is not a pause
 * request's (`toolsmith_request_confirmation`, `toolsmith_request_credential`).
 */
export function assertToolName(name: unknown, site: DefinitionSite): asserts name is string {
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) throw new InvalidToolNameError(site, String(name));
  if (PAUSE_REQUEST_NAMES.has(name)) throw new InvalidToolNameError(site, name, reservedToolNameMessage(site, name));
}
