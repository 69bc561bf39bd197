import { z } from 'zod';
import type { ModelTurn } from './wire-replies';

// The app every framework builds in the token benchmark: a travel assistant with four tools, defined
// once here (zod schemas, the same for every framework) and driven through the same conversation.

/** The agent's instruction. */
export const INSTRUCTION = 'You are a travel assistant. Use the tools to answer; ask before booking.';

/** The user's one message. */
export const USER_MESSAGE = 'What is the weather in Paris? Then book me the cheapest flight from Berlin to Paris on 2026-12-01 for 2 people, and cancel booking BK-7.';

/** Tool names, descriptions and parameter schemas. */
export const TRAVEL_TOOLS = {
  get_weather: {
    description: 'Current weather in a city.',
    parameters: z.object({
      city: z.string().describe('City name, e.g. "Paris"'),
      unit: z.enum(['celsius', 'fahrenheit']).optional().describe('Temperature unit (default celsius)'),
    }),
  },
  search_flights: {
    description: 'Searches flights for a date; returns them cheapest first.',
    parameters: z.object({
      from: z.string().regex(/^[A-Z]{3}$/).describe('IATA code of the departure airport'),
      to: z.string().regex(/^[A-Z]{3}$/).describe('IATA code of the arrival airport'),
      date: z.iso.date().describe('Departure date'),
      passengers: z.number().int().min(1).max(9),
      cabin: z.enum(['economy', 'premium', 'business']).optional(),
    }),
  },
  book_flight: {
    description: 'Books a flight found by search_flights. Needs the user\'s confirmation.',
    parameters: z.object({
      flightId: z.string().describe('The id search_flights returned'),
      passengers: z.number().int().min(1).max(9),
    }),
  },
  cancel_booking: {
    description: 'Cancels a booking.',
    parameters: z.object({ bookingId: z.string().describe('Booking reference, e.g. "BK-7"') }),
  },
} as const;

/** What each tool returns (cancel_booking throws {@link CANCEL_FAILURE}). */
export const TOOL_RESULTS = {
  get_weather: { city: 'Paris', temperature: 9, unit: 'celsius', conditions: 'light rain' },
  search_flights: {
    flights: [
      { id: 'EW9040', departs: '2026-12-01T07:05', arrives: '2026-12-01T08:50', priceEur: 89 },
      { id: 'AF1135', departs: '2026-12-01T12:40', arrives: '2026-12-01T14:25', priceEur: 142 },
    ],
  },
  book_flight: { bookingId: 'BK-912', flightId: 'EW9040', passengers: 2, totalEur: 178 },
} as const;

/** The message of the error cancel_booking throws. */
export const CANCEL_FAILURE = 'Booking BK-7 departs within 24 hours and can no longer be cancelled.';

/** The model's side: one turn per request, in order. The second call is invalid in three ways. */
export const MODEL_TURNS: readonly ModelTurn[] = [
  { calls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }] },
  { calls: [{ id: 'call_2', name: 'search_flights', args: { from: 'Berlin', to: 'PAR', date: '1 Dec 2026', passengers: 0 } }] },
  { calls: [{ id: 'call_3', name: 'search_flights', args: { from: 'BER', to: 'PAR', date: '2026-12-01', passengers: 2 } }] },
  { calls: [{ id: 'call_4', name: 'book_flight', args: { flightId: 'EW9040', passengers: 2 } }] },
  { calls: [{ id: 'call_5', name: 'cancel_booking', args: { bookingId: 'BK-7' } }] },
  { text: 'Paris: 9 °C, light rain. Booked EW9040 for 2 (BK-912, 178 EUR). BK-7 departs within 24 hours and can no longer be cancelled.' },
];

/** The model name each request names (the local server answers any). */
export const MODEL_NAMES = { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-5-5', gemini: 'gemini-2.5-flash' } as const;
