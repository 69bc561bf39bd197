// Two unrelated root agents and no `agent` export: the loader cannot tell which one to run.
import { LlmAgent } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';

export const billing = new LlmAgent({ name: 'billing', model: new ScriptedModel(['hi']) });
export const support = new LlmAgent({ name: 'support', model: new ScriptedModel(['hi']) });
