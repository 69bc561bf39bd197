import { Ctx } from '../decorators/ctx.decorator';
import { Tool } from './tool';
import { Toolset } from './toolset';
import { functionTool } from '../function-tool/function-tool';
import { scanTools } from '../scanning/tool-scanner';
import { Runner } from '../runner/runner';
import { LlmAgent } from '../agents/llm-agent';
import { ScriptedModel } from '../testing/scripted-model';
import { testToolContext } from '../testing/test-tool-context';
import type { ToolContext } from './tool-context';

@Toolset()
class Payments {
  @Tool({ description: 'Charges once per key.', idempotent: true })
  charge(@Ctx() ctx: ToolContext) {
    return { key: ctx.idempotencyKey };
  }

  @Tool({ description: 'Sends a mail.' })
  mail() {
    return { sent: true };
  }
}

describe('ctx.idempotencyKey and @Tool({ idempotent })', () => {
  it('is the same for the same call, whichever context or process serves it, and differs for another call, session, user or app', () => {
    const key = testToolContext({ functionCallId: 'call-7' }).idempotencyKey;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(testToolContext({ functionCallId: 'call-7', invocationId: 'another-invocation' }).idempotencyKey).toBe(key);
    const others = [
      testToolContext({ functionCallId: 'call-8' }),
      testToolContext({ functionCallId: 'call-7', sessionId: 'other' }),
      testToolContext({ functionCallId: 'call-7', userId: 'other' }),
      testToolContext({ functionCallId: 'call-7', appName: 'other' }),
    ].map((ctx) => ctx.idempotencyKey);
    expect(new Set([key, ...others]).size).toBe(5);
  });

  it('marks decorated and function tools idempotent only when they say so', () => {
    const tools = scanTools(Payments);
    expect(tools.find((t) => t.name === 'charge')!.idempotent).toBe(true);
    expect(tools.find((t) => t.name === 'mail')!.idempotent).toBeUndefined();
    expect(functionTool({ name: 'put', description: 'Puts.', idempotent: true, execute: () => ({}) }).idempotent).toBe(true);
    expect(functionTool({ name: 'post', description: 'Posts.', execute: () => ({}) }).idempotent).toBeUndefined();
  });

  it('reaches the tool in a run: the key it sees is the one derived from its call', async () => {
    const model = new ScriptedModel([{ calls: [{ id: 'c-1', name: 'charge' }] }, { text: 'done' }]);
    const runner = new Runner({ appName: 'shop', agent: new LlmAgent({ name: 'cashier', model, tools: [Payments] }) });
    const events = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'charge' }] } })) events.push(event);
    const [response] = events.flatMap((e) => e.functionResponses());
    expect(response.response).toEqual({ key: testToolContext({ appName: 'shop', userId: 'u', sessionId: 's', functionCallId: 'c-1' }).idempotencyKey });
  });
});
