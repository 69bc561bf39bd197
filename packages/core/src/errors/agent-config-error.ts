import { ToolsmithError } from './toolsmith-error';

/**
 * An agent tree or its tools cannot work as configured (duplicate agent names, an agent with two
 * parents, a provider tool for another provider, an unsupported `tools` entry). Thrown at startup.
 */
export class AgentConfigError extends ToolsmithError {
  constructor(message: string) {
    super('AGENT_CONFIG_INVALID', message);
  }
}
