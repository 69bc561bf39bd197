// An agent whose tool needs the user's API key (`@Tool({ auth })`), offline on ScriptedModel, for the
// inspector's test that a key the user types in never reaches what the inspector keeps.
import { type AuthConfig, InMemoryCredentialService, LlmAgent, type LlmRequest, Tool, ToolContext, Toolset } from '@toolsmith/core';
import { ScriptedModel, type ScriptedTurn } from '@toolsmith/core/testing';

const weatherKey: AuthConfig = { scheme: 'apiKey', name: 'weather-key' };

@Toolset()
export class WeatherTools {
  @Tool({ description: 'The weather, from an API that needs the user\'s key.', auth: weatherKey })
  weather(ctx: ToolContext) {
    return { forecast: 'sunny', keyLength: ctx.credential?.apiKey?.length ?? 0 };
  }
}

function answer(request: LlmRequest): ScriptedTurn {
  const last = request.contents[request.contents.length - 1];
  const response = last.parts.find((p) => p.functionResponse)?.functionResponse;
  if (response) return `The forecast is ${(response.response as { forecast?: string }).forecast}.`;
  return { calls: [{ name: 'weather', args: {} }] };
}

export const credentialService = new InMemoryCredentialService();

export const agent = new LlmAgent({ name: 'weather_agent', model: new ScriptedModel(answer, { modelName: 'weather-script' }), instruction: 'You tell the weather.', tools: [WeatherTools] });
