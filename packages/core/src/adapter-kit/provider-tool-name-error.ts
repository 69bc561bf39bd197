import { providerToolNameMessage } from '../errors/messages';
import { ToolsmithError } from '../errors/toolsmith-error';

/**
 * A provider refuses a tool's name (OpenAI and Anthropic take only `[a-zA-Z0-9_-]{1,64}`, so a
 * hand-built `files.read` is refused). Adapters throw it from `Model.checkTools`, when the runner is
 * built, instead of letting the provider answer 400 at the first request. Code: `PROVIDER_TOOL_NAME_INVALID`.
 */
export class ProviderToolNameError extends ToolsmithError {
  constructor(
    /** The provider's display name, e.g. `OpenAI`. */
    readonly provider: string,
    /** The refused name, as the tool declares it (toolset prefix included). */
    readonly toolName: string,
    /** The rule in words, completing "requires function names to …". */
    rule: string,
  ) {
    super('PROVIDER_TOOL_NAME_INVALID', providerToolNameMessage(provider, toolName, rule), { details: { provider, toolName } });
  }
}
