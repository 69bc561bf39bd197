import { LlmAgent, type Model, Runner } from '@toolsmith/core';
import { TaskTools } from './task-tools';

/** The to-do agent on the model it is given: a provider's, or a ScriptedModel in tests and offline. */
export function todoRunner(model: Model): Runner {
  const agent = new LlmAgent({
    name: 'todo',
    model,
    instruction: 'You keep the user’s to-do list with your tools.',
    tools: [TaskTools],
  });
  return new Runner({ appName: 'todo', agent });
}
