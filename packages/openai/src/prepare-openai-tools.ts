import { type JsonSchema, type LlmRequest, ToolsmithError } from '@toolsmith/core';
import { selectProviderTools } from '@toolsmith/core/adapter-kit';
import type { ChatCompletionTool, ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions';
import type { Tool as ResponsesTool, ToolChoiceFunction, ToolChoiceOptions } from 'openai/resources/responses/responses';
import { OPENAI_PROVIDER } from './provider-tool';
import { checkOpenAITools } from './check-openai-tools';
import { strictSchemaFor } from './to-strict-json-schema';

/** Which OpenAI API a model talks to. */
export type OpenAIApi = 'chat' | 'responses';

/** Input of {@link prepareOpenAITools}. */
export interface PrepareOpenAIToolsInput<A extends OpenAIApi> {
  request: Pick<LlmRequest, 'tools' | 'providerTools' | 'toolChoice' | 'config'>;
  api: A;
  strict: boolean;
  /** The model's default; `request.config.parallelToolCalls` overrides it. */
  parallelToolCalls?: boolean;
}

/** The tool-related request fields for one OpenAI API. */
export interface PreparedOpenAITools<A extends OpenAIApi> {
  tools?: A extends 'chat' ? ChatCompletionTool[] : ResponsesTool[];
  toolChoice?: A extends 'chat' ? ChatCompletionToolChoiceOption : ToolChoiceOptions | ToolChoiceFunction;
  parallelToolCalls?: boolean;
  /** Canonical schemas of the tools sent in strict mode, by name, for mapping `null` back to "absent". */
  strictSchemas: Map<string, JsonSchema>;
}

/**
 * Turns the request's function declarations and provider tools into OpenAI's `tools`, `tool_choice`
 * and `parallel_tool_calls`. Names, limits and (strict mode) schemas are checked by `checkOpenAITools`
 * first; in strict mode each schema goes through `toStrictJsonSchema` (once per schema object);
 * otherwise the canonical schema is sent as is. `strict` is always sent explicitly. Provider tools are passed through
 * on the Responses API and refused on Chat Completions and when they belong to another provider.
 */
export function prepareOpenAITools<A extends OpenAIApi>(input: PrepareOpenAIToolsInput<A>): PreparedOpenAITools<A> {
  const { request, api, strict } = input;
  const strictSchemas = new Map<string, JsonSchema>();
  const tools: Array<ChatCompletionTool | ResponsesTool> = [];

  // The runner checked its tools when it was built; declarations added per request are checked here.
  checkOpenAITools(request.tools, strict);
  for (const declaration of request.tools) {
    const parameters = strict ? strictSchemaFor(declaration) : nonStrictSchema(declaration.parameters);
    if (strict) strictSchemas.set(declaration.name, declaration.parameters);
    tools.push(
      api === 'chat'
        ? { type: 'function', function: { name: declaration.name, description: declaration.description, parameters, strict } }
        : { type: 'function', name: declaration.name, description: declaration.description, parameters, strict },
    );
  }

  const hosted = selectProviderTools(request.providerTools, OPENAI_PROVIDER, 'an OpenAI model');
  if (hosted.length && api === 'chat') {
    throw new ToolsmithError(
      'PROVIDER_TOOL_UNSUPPORTED',
      `OpenAI's hosted tools (${request.providerTools!.map((tool) => `"${tool.name}"`).join(', ')}) need the Responses API; ` +
        "Chat Completions cannot run them. Create the model with `new OpenAIModel({ ..., api: 'responses' })`.",
    );
  }
  tools.push(...(hosted as unknown as ResponsesTool[]));

  if (!tools.length) return { strictSchemas };
  const parallelToolCalls = request.config?.parallelToolCalls ?? input.parallelToolCalls;
  const prepared: PreparedOpenAITools<OpenAIApi> = { tools: tools as ChatCompletionTool[], strictSchemas };
  if (parallelToolCalls !== undefined) prepared.parallelToolCalls = parallelToolCalls;
  const choice = request.toolChoice;
  if (choice !== undefined) {
    if (typeof choice === 'string') prepared.toolChoice = choice;
    else prepared.toolChoice = api === 'chat' ? { type: 'function', function: { name: choice.name } } : { type: 'function', name: choice.name };
  }
  return prepared as PreparedOpenAITools<A>;
}

/** Non-strict: the canonical schema, with `properties: {}` for a tool without parameters (OpenAI expects it). */
function nonStrictSchema(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest.properties === undefined ? { ...rest, type: 'object', properties: {} } : rest;
}
