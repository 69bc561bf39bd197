import type { JsonSchema } from '../../model/json-schema';
import type { BaseTool } from '../../tools/base-tool';
import { functionTool } from '../../function-tool/function-tool';

/** What the conformance tools did, for assertions. */
export interface ConformanceLedger {
  weatherCalls: Array<Record<string, unknown>>;
  refunds: number[];
}

const WEATHER_PARAMETERS: JsonSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name, e.g. Paris' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['city'],
};

const REFUND_PARAMETERS: JsonSchema = {
  type: 'object',
  properties: { amount: { type: 'number', minimum: 0 } },
  required: ['amount'],
};

/**
 * The tools every adapter is exercised with: `get_weather` (an optional parameter; throws for
 * "Atlantis"), `refund` (needs the user's confirmation) and `ping` (no parameters).
 */
export function conformanceTools(ledger: ConformanceLedger): BaseTool[] {
  return [
    functionTool<{ city: string; unit?: string }>({
      name: 'get_weather',
      description: 'Returns the current temperature in a city.',
      parameters: WEATHER_PARAMETERS,
      execute: (args) => {
        ledger.weatherCalls.push({ ...args });
        if (args.city === 'Atlantis') throw new Error('No weather station in Atlantis');
        return { city: args.city, temperature: args.city === 'Oslo' ? 4 : 21, unit: args.unit ?? 'celsius' };
      },
    }),
    refundTool(ledger.refunds),
    functionTool({ name: 'ping', description: 'Checks that the service is up.', execute: () => ({ pong: true }) }),
  ];
}

/** `refund({ amount })`: needs the user's confirmation; each run is pushed on `refunds`, so tests can count them. */
export function refundTool(refunds: number[]): BaseTool {
  return functionTool<{ amount: number }>({
    name: 'refund',
    description: 'Refunds an amount to the customer.',
    parameters: REFUND_PARAMETERS,
    requireConfirmation: true,
    execute: (args) => {
      refunds.push(args.amount);
      return { refunded: args.amount };
    },
  });
}
