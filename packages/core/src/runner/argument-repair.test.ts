import { LlmAgent } from '../agents/llm-agent';
import { functionTool } from '../function-tool/function-tool';
import { ScriptedModel } from '../testing/scripted-model';
import { collect } from './__fixtures__/test-tools';
import { Runner } from './runner';

const createTask = functionTool<{ title: string; priority: string }>({
  name: 'createTask',
  description: 'Creates a task.',
  parameters: { type: 'object', properties: { title: { type: 'string' }, priority: { enum: ['low', 'high'] } }, required: ['title', 'priority'], additionalProperties: false },
  execute: () => ({ ok: true }),
});

async function firstResponse(repairArguments?: boolean) {
  const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'createTask', args: '{"title":"Ship","priority":"LOW"}' }] }, 'done']);
  const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [createTask] }), ...(repairArguments === undefined ? {} : { repairArguments }) });
  const events = await collect(runner, 'go');
  return events[1].functionResponses()[0];
}

describe('Runner: argument repair', () => {
  it('records the repairs on the function response event, and repairArguments: false turns them off for every tool', async () => {
    expect(await firstResponse()).toMatchObject({ response: { ok: true }, argumentRepairs: [{ repair: 'enum-case', path: '/priority' }] });
    const refused = await firstResponse(false);
    expect(refused.response.error).toMatchObject({ code: 'INVALID_ARGUMENTS', message: expect.stringContaining('priority: got "LOW", expected one of "low" | "high"') });
    expect(refused.argumentRepairs).toBeUndefined();
  });
});
