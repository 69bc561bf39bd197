// A root agent exported beside its sub-agent: the root is the one that is no other's sub-agent.
import { LlmAgent } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';

export const helper = new LlmAgent({ name: 'helper', model: new ScriptedModel(['hi']) });
export const coordinator = new LlmAgent({ name: 'coordinator', model: new ScriptedModel(['hi']), subAgents: [helper] });
