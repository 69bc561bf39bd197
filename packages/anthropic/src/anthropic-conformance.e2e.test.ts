import { runAdapterConformance } from '@toolsmith/core/testing';
import { anthropicWireCodec } from './__fixtures__/anthropic-wire-codec';
import { AnthropicModel } from './anthropic-model';

runAdapterConformance({
  name: 'anthropic (messages)',
  createModel: (baseURL) => new AnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 1024, baseURL, apiKey: 'test-key', maxRetries: 0 }),
  wire: anthropicWireCodec,
});
