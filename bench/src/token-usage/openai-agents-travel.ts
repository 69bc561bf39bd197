import { Agent, run, setTracingDisabled, tool } from '@openai/agents-core';
import { OpenAIChatCompletionsModel, OpenAIResponsesModel } from '@openai/agents-openai';
import OpenAI from 'openai';
import { CANCEL_FAILURE, INSTRUCTION, MODEL_NAMES, TOOL_RESULTS, TRAVEL_TOOLS, USER_MESSAGE } from './travel-app';

/** The OpenAI APIs OpenAI Agents JS speaks. */
export type AgentsApi = 'chat' | 'responses';

/**
 * The travel app on OpenAI Agents JS, as its documentation writes it: `tool()`s with zod parameters,
 * book_flight with `needsApproval`, the run's interruption approved and the run resumed from its state.
 * Tracing is off (it would export to OpenAI).
 */
export async function openAIAgentsTravel(api: AgentsApi, baseURL: string): Promise<string> {
  setTracingDisabled(true);
  const { get_weather, search_flights, book_flight, cancel_booking } = TRAVEL_TOOLS;
  const client = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: 'bench-key', maxRetries: 0 });
  // The SDK's two model classes take the client of its own `openai` dependency; the wire is the same.
  const openai = client as unknown as ConstructorParameters<typeof OpenAIResponsesModel>[0];
  const model = api === 'chat' ? new OpenAIChatCompletionsModel(openai, MODEL_NAMES.openai) : new OpenAIResponsesModel(openai, MODEL_NAMES.openai);
  const agent = new Agent({
    name: 'travel_agent',
    instructions: INSTRUCTION,
    model,
    tools: [
      tool({ name: 'get_weather', description: get_weather.description, parameters: get_weather.parameters, execute: async () => TOOL_RESULTS.get_weather }),
      tool({ name: 'search_flights', description: search_flights.description, parameters: search_flights.parameters, execute: async () => TOOL_RESULTS.search_flights }),
      tool({ name: 'book_flight', description: book_flight.description, parameters: book_flight.parameters, needsApproval: true, execute: async () => TOOL_RESULTS.book_flight }),
      tool({
        name: 'cancel_booking',
        description: cancel_booking.description,
        parameters: cancel_booking.parameters,
        execute: async () => {
          throw new Error(CANCEL_FAILURE);
        },
      }),
    ],
  });
  let result = await run(agent, USER_MESSAGE);
  if (result.interruptions.length === 0) throw new Error(`OpenAI Agents (${api}) did not ask for approval`);
  for (const interruption of result.interruptions) result.state.approve(interruption);
  result = await run(agent, result.state);
  return String(result.finalOutput ?? '');
}
