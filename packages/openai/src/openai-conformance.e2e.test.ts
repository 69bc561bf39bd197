import { runAdapterConformance } from '@toolsmith/core/testing';
import { openAIChatCodec, openAIResponsesCodec } from './__fixtures__/openai-wire-codecs';
import { OpenAIModel } from './openai-model';

runAdapterConformance({
  name: 'openai (chat completions)',
  createModel: (baseURL) => new OpenAIModel({ model: 'gpt-4.1-mini', baseURL: `${baseURL}/v1`, apiKey: 'test-key', maxRetries: 0 }),
  wire: openAIChatCodec,
  refusedTool: { name: 'set_labels', parameters: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } }, code: 'STRICT_SCHEMA_UNSUPPORTED' },
});

runAdapterConformance({
  name: 'openai (responses)',
  createModel: (baseURL) => new OpenAIModel({ model: 'gpt-4.1-mini', api: 'responses', baseURL: `${baseURL}/v1`, apiKey: 'test-key', maxRetries: 0 }),
  wire: openAIResponsesCodec,
  refusedTool: { name: 'set_labels', parameters: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } }, code: 'STRICT_SCHEMA_UNSUPPORTED' },
});
