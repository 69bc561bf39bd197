import { type BaseTool, type JsonSchema, type ToolContext, functionTool, toolFile, toolResult } from '@toolsmith/core';
import { SAMPLE_FILES } from '@toolsmith/core/testing';
import { reportMcpProgress } from '../report-mcp-progress';
import { requestMcpSampling } from '../request-mcp-sampling';
import { sendMcpLog } from '../send-mcp-log';

/**
 * The tools the official MCP conformance suite's server scenarios call, by the names it asks for,
 * written as any Toolsmith tool is: files through `toolFile`/`toolResult`, progress through
 * `reportMcpProgress`, logs through `sendMcpLog`, the client's model through `requestMcpSampling`,
 * forms through `ctx.requestConfirmation({ payloadSchema })`, errors by throwing. Served by `serveMcp` in mcp-conformance.e2e.test.ts.
 */
export function conformanceTools(): BaseTool[] {
  const noParameters = { type: 'object', properties: {}, additionalProperties: false } as const;
  return [
    functionTool({
      name: 'test_simple_text',
      description: 'Returns a simple text response.',
      parameters: noParameters,
      execute: () => ({ text: 'This is a simple text response for testing.' }),
    }),
    functionTool({
      name: 'test_image_content',
      description: 'Returns a PNG image.',
      parameters: noParameters,
      execute: () => toolFile({ mimeType: 'image/png', data: SAMPLE_FILES.png, name: 'pixel.png' }),
    }),
    functionTool({
      name: 'test_audio_content',
      description: 'Returns a WAV sound.',
      parameters: noParameters,
      execute: () => toolFile({ mimeType: 'audio/wav', data: SAMPLE_FILES.wav, name: 'beep.wav' }),
    }),
    functionTool({
      name: 'test_embedded_resource',
      description: 'Returns a PDF document (an embedded resource).',
      parameters: noParameters,
      execute: () => toolFile({ mimeType: 'application/pdf', data: SAMPLE_FILES.pdf, name: 'report.pdf' }),
    }),
    functionTool({
      name: 'test_multiple_content_types',
      description: 'Returns JSON, an image and a document.',
      parameters: noParameters,
      execute: () =>
        toolResult({ test: 'data', value: 123 }, [
          toolFile({ mimeType: 'image/png', data: SAMPLE_FILES.png, name: 'pixel.png' }),
          toolFile({ mimeType: 'application/pdf', data: SAMPLE_FILES.pdf, name: 'report.pdf' }),
        ]),
    }),
    functionTool({
      name: 'test_error_handling',
      description: 'Always fails.',
      parameters: noParameters,
      execute: () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    }),
    functionTool({
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50 and 100 of 100.',
      parameters: noParameters,
      execute: async (_args, context: ToolContext) => {
        for (const progress of [0, 50, 100]) await reportMcpProgress(context, { progress, total: 100 });
        return { done: true };
      },
    }),
    functionTool({
      name: 'test_tool_with_logging',
      description: 'Logs three info messages while it runs.',
      parameters: noParameters,
      execute: async (_args, context: ToolContext) => {
        for (const data of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) await sendMcpLog(context, { level: 'info', data });
        return { done: true };
      },
    }),
    functionTool({
      name: 'test_sampling',
      description: "Asks the client's model.",
      parameters: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'], additionalProperties: false },
      execute: async (args: { prompt: string }, context: ToolContext) => {
        const answer = await requestMcpSampling(context, { messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }], maxTokens: 100 });
        return { text: `LLM response: ${answer.content.type === 'text' ? answer.content.text : answer.content.type}` };
      },
    }),
    formTool('test_elicitation', 'Asks the user for a username and an email.', (args) => String(args.message), {
      type: 'object',
      properties: {
        username: { type: 'string', description: "User's response" },
        email: { type: 'string', description: "User's email address" },
      },
      required: ['username', 'email'],
    }),
    formTool('test_elicitation_sep1034_defaults', 'Asks for a form whose fields have defaults (SEP-1034).', () => 'Please review your details.', {
      type: 'object',
      properties: {
        name: { type: 'string', default: 'John Doe' },
        age: { type: 'integer', default: 30 },
        score: { type: 'number', default: 95.5 },
        status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', default: true },
      },
    }),
    formTool('test_elicitation_sep1330_enums', 'Asks for a form with every kind of enum (SEP-1330).', () => 'Pick your options.', {
      type: 'object',
      properties: {
        untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        titledSingle: { type: 'string', oneOf: [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }, { const: 'value3', title: 'Third Option' }] },
        legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
        untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
        titledMulti: { type: 'array', items: { anyOf: [{ const: 'value1', title: 'First Choice' }, { const: 'value2', title: 'Second Choice' }, { const: 'value3', title: 'Third Choice' }] } },
      },
    }),
    functionTool({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      parameters: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      },
      execute: (args) => ({ received: args }),
    }),
  ];
}

/** A tool that asks the user to fill in `form` (a confirmation with a payload schema) and answers with what they filled in. */
function formTool(name: string, description: string, hint: (args: Record<string, unknown>) => string, form: JsonSchema): BaseTool {
  return functionTool({
    name,
    description,
    parameters: { type: 'object', properties: { message: { type: 'string' } }, additionalProperties: false },
    execute: (args: Record<string, unknown>, context: ToolContext) => {
      if (!context.toolConfirmation) {
        context.requestConfirmation({ hint: hint(args), payloadSchema: form });
        return {};
      }
      return { text: `User response: action=accept, content=${JSON.stringify(context.toolConfirmation.payload)}` };
    },
  });
}
