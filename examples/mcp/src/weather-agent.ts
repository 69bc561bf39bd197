import { LlmAgent, type Model, Runner } from '@toolsmith/core';
import { createWeatherOfflineModel } from '@toolsmith/example-kit';
import { McpToolset, type McpToolsetOptions } from '@toolsmith/mcp';

/** Options of {@link createWeatherAgent}. */
export interface WeatherAgentOptions {
  /** How to reach the weather MCP server: a command to start (stdio) or its URL. */
  server: McpToolsetOptions['transport'];
  /** The model; default: the offline scripted model (`node dist/agent.js` picks one with the kit's `pickModel`). */
  model?: Model;
}

/**
 * A runner whose agent gets its tools from the weather MCP server through {@link McpToolset}. The
 * tools are prefixed `weather_` so they cannot clash with the agent's other tools.
 * `runner.close()` ends the MCP session (and stops a server it started).
 */
export function createWeatherAgent(options: WeatherAgentOptions): Runner {
  const weather = new McpToolset({ transport: options.server, prefix: 'weather_', timeoutMs: 10_000 });
  const agent = new LlmAgent({
    name: 'weather_assistant',
    model: options.model ?? createWeatherOfflineModel(),
    instruction: 'You answer questions about the weather. Use the weather tools; never guess.',
    tools: [weather],
  });
  return new Runner({ appName: 'mcp-weather', agent });
}
