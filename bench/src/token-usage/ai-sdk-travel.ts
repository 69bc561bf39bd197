import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { type LanguageModel, type ModelMessage, generateText, stepCountIs, tool } from 'ai';
import { CANCEL_FAILURE, INSTRUCTION, MODEL_NAMES, TOOL_RESULTS, TRAVEL_TOOLS, USER_MESSAGE } from './travel-app';
import type { WireApi } from './wire-replies';

/** The AI SDK's model for `api`, pointed at the local server. */
function modelFor(api: WireApi, baseURL: string): LanguageModel {
  switch (api) {
    case 'chat':
      return createOpenAI({ baseURL: `${baseURL}/v1`, apiKey: 'bench-key' }).chat(MODEL_NAMES.openai);
    case 'responses':
      return createOpenAI({ baseURL: `${baseURL}/v1`, apiKey: 'bench-key' }).responses(MODEL_NAMES.openai);
    case 'anthropic':
      return createAnthropic({ baseURL: `${baseURL}/v1`, apiKey: 'bench-key' })(MODEL_NAMES.anthropic);
    case 'gemini':
      return createGoogleGenerativeAI({ baseURL: `${baseURL}/v1beta`, apiKey: 'bench-key' })(MODEL_NAMES.gemini);
  }
}

/**
 * The travel app on the AI SDK (v5), as its documentation writes it: tools with zod `inputSchema`s, a
 * multi-step `generateText`, and book_flight without `execute` (the human-in-the-loop pattern): the run
 * stops at its call, the app asks the user, runs the booking and sends its result in a second
 * `generateText`.
 */
export async function aiSdkTravel(api: WireApi, baseURL: string): Promise<string> {
  const { get_weather, search_flights, book_flight, cancel_booking } = TRAVEL_TOOLS;
  const tools = {
    get_weather: tool({ description: get_weather.description, inputSchema: get_weather.parameters, execute: async () => TOOL_RESULTS.get_weather }),
    search_flights: tool({ description: search_flights.description, inputSchema: search_flights.parameters, execute: async () => TOOL_RESULTS.search_flights }),
    book_flight: tool({ description: book_flight.description, inputSchema: book_flight.parameters }),
    cancel_booking: tool({
      description: cancel_booking.description,
      inputSchema: cancel_booking.parameters,
      execute: async (): Promise<{ cancelled: boolean }> => {
        throw new Error(CANCEL_FAILURE);
      },
    }),
  };
  const model = modelFor(api, baseURL);
  const messages: ModelMessage[] = [{ role: 'user', content: USER_MESSAGE }];
  const first = await generateText({ model, system: INSTRUCTION, messages, tools, stopWhen: stepCountIs(10), maxRetries: 0 });
  messages.push(...first.response.messages);
  const booking = first.toolCalls.find((call) => call.toolName === 'book_flight');
  if (!booking) throw new Error(`AI SDK (${api}) did not stop at book_flight`);
  // The user approved: the app books and hands the result to the model.
  messages.push({
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: booking.toolCallId, toolName: 'book_flight', output: { type: 'json', value: TOOL_RESULTS.book_flight } }],
  });
  const second = await generateText({ model, system: INSTRUCTION, messages, tools, stopWhen: stepCountIs(10), maxRetries: 0 });
  return second.text;
}
