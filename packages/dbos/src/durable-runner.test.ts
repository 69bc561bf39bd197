import { LlmAgent, type Plugin } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { DurableRunner } from './durable-runner';

describe('DurableRunner: plugins', () => {
  const agent = new LlmAgent({ name: 'root', model: new ScriptedModel(['ok']) });
  const build = (plugins: unknown) => () => new DurableRunner({ appName: 'plugins-check', agent, sessionService: undefined as never, plugins: plugins as Plugin[] });

  it("a plugin that cannot be used is named by its index in the plugins the DurableRunner was given (its own plugin, first in the runner's, is not counted)", () => {
    const audit: Plugin = { name: 'audit' };
    expect(build([{ name: 'p', beforeModel: 5 }])).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining("The DurableRunner's plugins[0].beforeModel is number") }));
    expect(build([audit, null])).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining("The DurableRunner's plugins[1] is null") }));
    expect(build([audit, { name: 'q', afterTool: [() => undefined, 'x'] }])).toThrow(expect.objectContaining({ message: expect.stringContaining("The DurableRunner's plugins[1].afterTool[1] is string") }));
    expect(build([audit, {}])).not.toThrow();
  });

  it("plugins that are no array, or an array that cannot be read, fail with AGENT_CONFIG_INVALID naming the DurableRunner's option", () => {
    expect(build('audit')).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining("The DurableRunner's plugins option is string") }));
    expect(build(null)).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining("The DurableRunner's plugins option is null") }));
    const unreadable = new Proxy([{ name: 'audit' }], { get: (target, key) => (key === 'length' ? 1 : key === '0' ? (() => { throw new Error('gone'); })() : Reflect.get(target, key)) });
    expect(build(unreadable)).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID', message: expect.stringContaining("The DurableRunner's plugins option is an array that cannot be read (gone)") }));
  });
});
