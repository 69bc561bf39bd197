import { describe, expect, it } from '@jest/globals';
import { ProviderError } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { todoRunner } from './todo-agent';

const newMessage = { role: 'user' as const, parts: [{ text: 'Remind me to buy milk, it is urgent.' }] };

describe('the to-do agent', () => {
  it('creates the task the model asks for, and answers', async () => {
    const model = new ScriptedModel([{ calls: [{ name: 'createTask', args: { title: 'Buy milk', priority: 'high' } }] }, 'Added "Buy milk".']);
    const runner = todoRunner(model);
    const { text, error } = await runner.ask({ userId: 'u1', sessionId: 's1', newMessage });
    expect(error).toBeUndefined();
    expect(text).toBe('Added "Buy milk".');
    // The model's second request carries what the tool answered.
    expect(JSON.stringify(model.requests[1].contents)).toContain('"status":"created"');
    await runner.close();
  });

  it('tells the model what is wrong with its arguments, and lets it try again', async () => {
    const model = new ScriptedModel([
      { calls: [{ name: 'createTask', args: { title: 'Buy milk', priority: 'urgent' } }] },
      { calls: [{ name: 'createTask', args: { title: 'Buy milk', priority: 'high' } }] },
      'Added.',
    ]);
    const runner = todoRunner(model);
    const { text, events } = await runner.ask({ userId: 'u1', sessionId: 's2', newMessage });
    expect(text).toBe('Added.');
    const responses = events.flatMap((event) => event.functionResponses()).map(({ response }) => response);
    expect(responses[0]).toMatchObject({ error: { code: 'INVALID_ARGUMENTS' } });
    expect(JSON.stringify(responses[0])).toContain('priority');
    expect(responses[1]).toMatchObject({ status: 'created' });
    await runner.close();
  });

  it('ends on the error of a provider it cannot reach, with no answer', async () => {
    const unreachable = new ProviderError('PROVIDER_CONNECTION_FAILED', 'Could not reach the provider', { provider: 'scripted' });
    const runner = todoRunner(new ScriptedModel([unreachable]));
    const { text, error } = await runner.ask({ userId: 'u1', sessionId: 's3', newMessage });
    expect(error).toEqual({ code: 'PROVIDER_CONNECTION_FAILED', message: 'Could not reach the provider' });
    expect(text).toBe('');
    await runner.close();
  });
});
