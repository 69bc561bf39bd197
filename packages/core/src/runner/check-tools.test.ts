import { LlmAgent } from '../agents/llm-agent';
import { ToolsmithError } from '../errors/toolsmith-error';
import { functionTool } from '../function-tool/function-tool';
import type { FunctionDeclaration } from '../model/function-declaration';
import { ScriptedModel } from '../testing/scripted-model';
import { AgentTool } from '../agent-tool/agent-tool';
import { collect } from './__fixtures__/test-tools';
import { Runner } from './runner';

/** A scripted model whose provider refuses tools named `bad_*`, and which records every check. */
class CheckingModel extends ScriptedModel {
  readonly checked: string[][] = [];
  checkTools(declarations: readonly FunctionDeclaration[]): void {
    this.checked.push(declarations.map((declaration) => declaration.name));
    const bad = declarations.find((declaration) => declaration.name.startsWith('bad_'));
    if (bad) throw new ToolsmithError('TEST_TOOL_REFUSED', `Tool "${bad.name}" is refused by this provider.`);
  }
}

const tool = (name: string) => functionTool({ name, description: name, parameters: { type: 'object', properties: {} }, execute: () => ({ ok: true }) });

describe('Runner: Model.checkTools', () => {
  it('checks every static tool of every LlmAgent when the runner is built, sub-agents and agent tools included', () => {
    const model = new CheckingModel(['ok']);
    const helper = new LlmAgent({ name: 'helper', model, tools: [tool('lookup')] });
    const child = new LlmAgent({ name: 'child', model, tools: [tool('child_tool')] });
    const root = new LlmAgent({ name: 'root', model, tools: [tool('search'), new AgentTool({ agent: helper })], subAgents: [child] });

    new Runner({ appName: 'app', agent: root });

    expect(model.checked).toEqual(expect.arrayContaining([['search', 'helper', 'transfer_to_agent'], ['lookup'], ['child_tool', 'transfer_to_agent']]));
  });

  it('refuses a tool the model cannot take when the runner is built, before any request', () => {
    const model = new CheckingModel(['ok']);
    const agent = new LlmAgent({ name: 'root', model, tools: [tool('fine'), tool('bad_name')] });

    expect(() => new Runner({ appName: 'app', agent })).toThrow(expect.objectContaining({ code: 'TEST_TOOL_REFUSED' }));
    expect(model.requests).toHaveLength(0);
  });

  it('checks toolsets’ tools when they are listed, before the request, and reports a refusal as an error event', async () => {
    const model = new CheckingModel(['never sent']);
    const toolset = { getTools: () => [tool('bad_remote')] };
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [tool('local'), toolset] }) });
    expect(model.checked).toEqual([['local']]);

    const events = await collect(runner, 'hi');

    expect(model.checked).toEqual([['local'], ['local', 'bad_remote']]);
    expect(model.requests).toHaveLength(0);
    expect(events.at(-1)?.errorCode).toBe('TEST_TOOL_REFUSED');
  });

  it('works with models that do not check', async () => {
    const model = new ScriptedModel(['hello']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [tool('bad_but_unchecked')] }) });
    const events = await collect(runner, 'hi');
    expect(events.at(-1)?.content?.parts?.[0]?.text).toBe('hello');
  });
});
