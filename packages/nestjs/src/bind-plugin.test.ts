import { type AfterToolCallback, type BeforeToolCallback, LlmAgent, Runner } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { bindPlugin } from './bind-plugin';

type BeforeInput = Parameters<BeforeToolCallback>[0];

class Recorder {
  readonly seen: string[] = [];

  beforeTool(input: BeforeInput) {
    this.seen.push(`before ${input.tool.name}`);
  }

  afterTool: AfterToolCallback[] = [(input) => void this.seen.push(`after ${input.tool.name}`)];

  // Not a callback name: left out.
  helper() {
    return 'x';
  }
}

const input = { tool: { name: 't', description: '', isLongRunning: false }, args: {} } as unknown as BeforeInput;

describe('bindPlugin', () => {
  it('binds callback methods to the instance and names the plugin after its class', () => {
    const recorder = new Recorder();
    const plugin = bindPlugin(recorder);
    expect(plugin.name).toBe('Recorder');
    const { beforeTool } = plugin; // called unbound, as the runner does
    void (beforeTool as BeforeToolCallback)(input);
    void (plugin.afterTool as AfterToolCallback[])[0]({ ...input, response: {} });
    expect(recorder.seen).toEqual(['before t', 'after t']);
    expect(Object.keys(plugin).sort()).toEqual(['afterTool', 'beforeTool', 'name']);
  });

  it('keeps a name the instance gives itself', () => {
    expect(bindPlugin({ name: 'audit' }).name).toBe('audit');
  });

  it('passes a hook that is no function on, so the runner refuses it naming the hook (never left out unseen)', () => {
    const agent = new LlmAgent({ name: 'root', model: new ScriptedModel(['ok']) });
    const build = (instance: object) => () => new Runner({ appName: 'app', agent, plugins: [bindPlugin(instance)] });
    expect(build({ name: 'p', beforeModel: 5 })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins[0].beforeModel is number') }));
    expect(build({ name: 'p', beforeTool: [null] })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins[0].beforeTool[0] is null') }));
    const throwing = {
      name: 'p',
      get afterModel(): unknown {
        throw new Error('no hook');
      },
    };
    expect(build(throwing)).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins[0].afterModel cannot be read') }));
  });

  it('names a plugin whose name getter throws after its class, and passes a hook list that throws when read on for the runner to refuse', () => {
    class Guard {
      get name(): string {
        throw new Error('name boom');
      }
      get beforeTool(): unknown {
        return new Proxy([], { get: () => { throw new Error('list boom'); } });
      }
    }
    const plugin = bindPlugin(new Guard());
    expect(plugin.name).toBe('Guard');
    const agent = new LlmAgent({ name: 'root', model: new ScriptedModel(['ok']) });
    expect(() => new Runner({ appName: 'app', agent, plugins: [plugin] })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining('plugins[0].beforeTool cannot be read') }));
  });
});
