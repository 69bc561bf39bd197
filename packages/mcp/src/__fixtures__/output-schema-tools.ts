import { Param, Tool, Toolset } from '@toolsmith/core';

const TEMPERATURE = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};

/** Tools with `@Tool({ outputSchema })`, served by `serveMcp` in the output-schema tests. */
@Toolset()
export class OutputSchemaTools {
  @Tool({ description: 'Temperature of a city.', outputSchema: TEMPERATURE })
  temperature(@Param('city') city: string) {
    return { city, celsius: 21 };
  }

  @Tool({ description: 'Names of cities (an array, sent as { result }).', outputSchema: { type: 'array', items: { $ref: '#/$defs/city' }, $defs: { city: { type: 'string' } } } })
  cities() {
    return ['Paris', 'Oslo'];
  }

  @Tool({ description: 'Promises a number, returns text.', outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] } })
  broken() {
    return { celsius: 'warm' };
  }

  @Tool({ description: 'A report of `chars` characters.', outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } })
  report(@Param('chars') chars: number) {
    return { text: 'x'.repeat(chars) };
  }

  @Tool({ description: 'Either of two shapes: no output schema can be promised.', outputSchema: { anyOf: [{ type: 'string' }, { type: 'object' }] } })
  either() {
    return { shape: 'object' };
  }
}
