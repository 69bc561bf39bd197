// An agent on the real OpenAI adapter (Chat Completions), for the inspector's view of what an adapter
// sends the provider and of its retries. The test points it at a local server through OPENAI_BASE_URL
// before loading this module; retries wait nothing, so a 429 is tried again at once.
import { LlmAgent } from '@toolsmith/core';
import { OpenAIModel } from '@toolsmith/openai';

export const agent = new LlmAgent({
  name: 'wire_agent',
  model: new OpenAIModel({ model: 'gpt-wire', retry: { maxRetries: 2, initialDelayMs: 0, maxDelayMs: 0 } }),
  instruction: 'You answer in one word.',
});
