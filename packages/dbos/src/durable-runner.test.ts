import { LlmAgent, type Plugin } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { DBOS } from '@dbos-inc/dbos-sdk';
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

describe('DurableRunner: messages', () => {
  const agent = new LlmAgent({ name: 'root', model: new ScriptedModel(['ok']) });
  const durable = new DurableRunner({ appName: 'messages-check', agent, sessionService: undefined as never });

  it('a message Runner would refuse is refused by start and enqueue with INVALID_MESSAGE before anything is read from the session or started', async () => {
    for (const newMessage of [undefined, { role: 'user', parts: [null] }, { role: 'user', parts: 'hi' }, { role: 'user' }]) {
      const input = { userId: 'u', sessionId: 's', newMessage: newMessage as never };
      await expect(durable.start(input)).rejects.toMatchObject({ code: 'INVALID_MESSAGE' });
      await expect(durable.enqueue(input, 'q')).rejects.toMatchObject({ code: 'INVALID_MESSAGE' });
    }
  });

  it('ids Runner would refuse are refused by start and enqueue with INVALID_MESSAGE: a messageId names the workflow and the claim', async () => {
    const message = { role: 'user' as const, parts: [{ text: 'hi' }] };
    for (const bad of [{ messageId: '' }, { messageId: 5 }, { messageId: null }, { messageId: 'm\n1' }, { messageId: 'm\ud800' }, { messageId: 'm'.repeat(300) }, { userId: 5 }, { userId: undefined }, { sessionId: null }]) {
      const input = { userId: 'u', sessionId: 's', newMessage: message, ...bad } as never;
      await expect(durable.start(input)).rejects.toMatchObject({ code: 'INVALID_MESSAGE' });
      await expect(durable.enqueue(input, 'q')).rejects.toMatchObject({ code: 'INVALID_MESSAGE' });
    }
    const throwing = { userId: 'u', sessionId: 's', get newMessage(): never { throw new Error('gone'); } };
    await expect(durable.start(throwing as never)).rejects.toMatchObject({ code: 'INVALID_MESSAGE', message: expect.stringContaining('gone') });
  });

  it('the message is read once: which run it answers and what is started come from one plain copy', async () => {
    let reads = 0;
    const parts = [{ functionResponse: { id: 'A', name: 'adk_request_confirmation', response: { confirmed: true } } }];
    const message = { role: 'user', get parts() { reads++; return parts; } };
    const sessionService = { getSession: async () => undefined } as never;
    const started: unknown[] = [];
    const startWorkflow = jest.spyOn(DBOS, 'startWorkflow').mockImplementation((() => async (input: unknown) => { started.push(input); return 'handle'; }) as never);
    try {
      await new DurableRunner({ appName: 'messages-once', agent, sessionService }).start({ userId: 'u', sessionId: 's', newMessage: message as never });
    } finally {
      startWorkflow.mockRestore();
    }
    expect(reads).toBe(1);
    expect(started).toEqual([{ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts } }]);
    expect(Object.getOwnPropertyDescriptor((started[0] as { newMessage: object }).newMessage, 'parts')).toHaveProperty('value');
  });
});
