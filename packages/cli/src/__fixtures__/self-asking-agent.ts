// An agent whose `purge` tool asks for confirmation itself (ctx.requestConfirmation), which no grant
// answers: `toolsmith run` must not offer "always allow" for it. Offline on ScriptedModel.
import { LlmAgent, functionTool } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';

/** The caches purged, for the tests. */
export const purged: string[] = [];

const purge = functionTool<{ cache: string }>({
  name: 'purge',
  description: 'Purges a cache.',
  parameters: { type: 'object', properties: { cache: { type: 'string' } }, required: ['cache'] },
  execute: (args, ctx) => {
    if (!ctx.toolConfirmation) {
      ctx.requestConfirmation({ hint: `Purge ${args.cache}?` });
      return { status: 'waiting' };
    }
    purged.push(args.cache);
    return { purged: args.cache };
  },
});

export const agent = new LlmAgent({
  name: 'cleaner',
  model: new ScriptedModel([{ calls: [{ id: 'p1', name: 'purge', args: { cache: 'img' } }] }, 'Purged.'], { modelName: 'cleaner-script' }),
  tools: [purge],
});
