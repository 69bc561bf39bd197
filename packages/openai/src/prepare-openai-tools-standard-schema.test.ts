import { functionTool } from '@toolsmith/core';
import { z } from 'zod';
import { prepareOpenAITools } from './prepare-openai-tools';

describe('prepareOpenAITools with a zod tool', () => {
  it('takes zod’s JSON Schema in strict mode: optional and defaulted properties become nullable and required', () => {
    const book = functionTool({
      name: 'book',
      description: 'Books rooms.',
      parameters: z.object({
        city: z.string().min(2),
        nights: z.number().int().min(1),
        rooms: z.array(z.object({ beds: z.number().int(), view: z.enum(['sea', 'city']).optional() })),
        note: z.string().optional(),
        breakfast: z.boolean().default(false),
      }),
      execute: (args) => args,
    });
    const prepared = prepareOpenAITools({ request: { tools: [book.declaration()] }, api: 'chat', strict: true });
    const [tool] = prepared.tools as { function: { parameters: Record<string, unknown>; strict: boolean } }[];
    expect(tool.function.strict).toBe(true);
    expect(tool.function.parameters).toMatchObject({
      type: 'object',
      required: ['city', 'nights', 'rooms', 'note', 'breakfast'],
      additionalProperties: false,
      properties: {
        note: { type: ['string', 'null'] },
        rooms: { type: 'array', items: { type: 'object', required: ['beds', 'view'], additionalProperties: false } },
      },
    });
  });
});
