import type { AfterToolCallback, BeforeToolCallback } from '@toolsmith/core';
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
});
