import 'reflect-metadata';
import { AnthropicModel } from '@toolsmith/anthropic';
import { type BaseTool, LlmAgent, type Model, Runner, confirmationResponse, functionTool } from '@toolsmith/core';
import { GeminiModel } from '@toolsmith/gemini';
import { OpenAIModel } from '@toolsmith/openai';
import { CANCEL_FAILURE, INSTRUCTION, MODEL_NAMES, TOOL_RESULTS, TRAVEL_TOOLS, USER_MESSAGE } from './travel-app';
import type { WireApi } from './wire-replies';

/** The travel app's tools as Toolsmith `functionTool`s (book_flight needs confirmation). */
function travelTools(): BaseTool[] {
  const { get_weather, search_flights, book_flight, cancel_booking } = TRAVEL_TOOLS;
  return [
    functionTool({ name: 'get_weather', ...get_weather, execute: () => TOOL_RESULTS.get_weather }),
    functionTool({ name: 'search_flights', ...search_flights, execute: () => TOOL_RESULTS.search_flights }),
    functionTool({ name: 'book_flight', ...book_flight, requireConfirmation: true, execute: () => TOOL_RESULTS.book_flight }),
    functionTool({
      name: 'cancel_booking',
      ...cancel_booking,
      execute: () => {
        throw new Error(CANCEL_FAILURE);
      },
    }),
  ];
}

/** Toolsmith's model for `api`, pointed at the local server. */
function modelFor(api: WireApi, baseURL: string): Model {
  switch (api) {
    case 'chat':
      return new OpenAIModel({ model: MODEL_NAMES.openai, baseURL: `${baseURL}/v1`, apiKey: 'bench-key', maxRetries: 0 });
    case 'responses':
      return new OpenAIModel({ model: MODEL_NAMES.openai, api: 'responses', baseURL: `${baseURL}/v1`, apiKey: 'bench-key', maxRetries: 0 });
    case 'anthropic':
      return new AnthropicModel({ model: MODEL_NAMES.anthropic, maxTokens: 1024, baseURL, apiKey: 'bench-key', maxRetries: 0 });
    case 'gemini':
      return new GeminiModel({ model: MODEL_NAMES.gemini, apiKey: 'bench-key', baseUrl: baseURL, retry: false, httpOptions: { fetch: (input, init) => fetch(input, init) } });
  }
}

/** Runs the travel conversation on Toolsmith: the user's message, the confirmation asked for book_flight (approved), the answer. */
export async function toolsmithTravel(api: WireApi, baseURL: string): Promise<string> {
  const runner = new Runner({ appName: 'travel', agent: new LlmAgent({ name: 'travel_agent', model: modelFor(api, baseURL), instruction: INSTRUCTION, tools: travelTools() }) });
  const session = { userId: 'u1', sessionId: 's1' };
  const first = await runner.ask({ ...session, newMessage: { role: 'user', parts: [{ text: USER_MESSAGE }] } });
  if (first.error) throw new Error(`Toolsmith (${api}) failed: ${first.error.code}: ${first.error.message}`);
  const [request] = first.pending.confirmations;
  if (!request) throw new Error(`Toolsmith (${api}) did not ask for confirmation`);
  const second = await runner.ask({ ...session, newMessage: confirmationResponse(request, { confirmed: true }) });
  if (second.error) throw new Error(`Toolsmith (${api}) failed: ${second.error.code}: ${second.error.message}`);
  return second.text;
}
