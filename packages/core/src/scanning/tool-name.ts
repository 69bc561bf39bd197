import type { DefinitionSite } from '../errors/messages';
import { InvalidToolNameError } from '../errors/tool-definition-errors';

/** What every provider accepts as a function name. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Throws {@link InvalidToolNameError} unless `name` matches `^[a-zA-Z0-9_-]{1,64}$`. */
export function assertToolName(name: unknown, site: DefinitionSite): asserts name is string {
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) throw new InvalidToolNameError(site, String(name));
}
