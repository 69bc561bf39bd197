// An agent module whose `plugins` export is one plugin, not a list of them: loading it must fail, since
// a guard plugin left out would never run.
import { LlmAgent } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';

export const agent = new LlmAgent({ name: 'guarded', model: new ScriptedModel(['ok']) });

export const plugins = { name: 'audit', beforeModel: () => undefined };
