import { LlmAgent } from '../agents/llm-agent';
import type { BeforeModelCallback } from '../agents/callbacks';
import type { Event } from '../events/event';
import { functionTool } from '../function-tool/function-tool';
import type { Content } from '../model/content';
import type { JsonSchema } from '../model/json-schema';
import { ScriptedModel } from '../testing/scripted-model';
import type { LlmRequest } from '../model/llm-request';
import { BaseTool } from '../tools/base-tool';
import { REQUEST_ONLY_TOOL } from '../tools/request-only-tool';
import type { ToolContext } from '../tools/tool-context';
import { Runner } from '../runner/runner';
import { editableRequest } from './editable-request';

const message = (text: string): Content => ({ role: 'user', parts: [{ text }] });

async function events(runner: Runner, userId: string, sessionId: string, text: string): Promise<Event[]> {
  const yielded: Event[] = [];
  for await (const event of runner.run({ userId, sessionId, newMessage: message(text) })) yielded.push(event);
  return yielded;
}

/** A readable summary of each event's parts, as they are now. */
const partsOf = (list: readonly Event[]) => list.map((e) => JSON.stringify(e.content?.parts ?? null));

describe('what model callbacks may edit of a request', () => {
  it('a beforeModel that redacts the conversation for the model changes neither the stored session nor the events already yielded', async () => {
    const echo = functionTool({ name: 'echo', description: 'Echoes.', parameters: { type: 'object', properties: { v: { type: 'string' } } }, execute: ({ v }: { v?: string }) => ({ v }) });
    const model = new ScriptedModel((_request, i) => (i === 0 ? { calls: [{ name: 'echo', args: { v: 'card 4111' } }] } : 'ok'));
    const seen: string[] = [];
    const beforeModel: BeforeModelCallback = ({ request }) => {
      for (const content of request.contents) {
        for (const part of content.parts) {
          if (part.text) part.text = part.text.replace(/\d{4}/g, '####');
          if (part.functionCall) part.functionCall.args = { v: '[redacted]' };
          if (part.functionResponse) (part.functionResponse.response as Record<string, unknown>).v = '[redacted]';
        }
      }
      seen.push(JSON.stringify(request.contents));
    };
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [echo], callbacks: { beforeModel } }) });

    const yielded = await events(runner, 'u', 's', 'my card 4111');
    const asYielded = partsOf(yielded);
    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });

    // The model got the redacted conversation...
    expect(seen.at(-1)).not.toContain('4111');
    expect(JSON.stringify(model.requests.at(-1)!.contents)).not.toContain('4111');
    expect(JSON.stringify(model.requests.at(-1)!.contents)).toContain('[redacted]');
    // ...the session and the events keep what was said and done.
    // (the user's message is stored, not yielded)
    expect(partsOf(session!.events.slice(1))).toEqual(asYielded);
    expect(asYielded.join()).not.toContain('redacted');
    expect(session!.events[0].text()).toBe('my card 4111');
    expect(session!.events[1].functionCalls()[0].args).toEqual({ v: 'card 4111' });
    expect(session!.events[2].functionResponses()[0].response).toEqual({ v: 'card 4111' });
  });

  it("a beforeModel's per-user edit of a tool declaration reaches neither the next user's request nor argument validation", async () => {
    const parameters: JsonSchema = { type: 'object', properties: { account: { type: 'string' } }, required: ['account'] };
    const pick = functionTool({ name: 'pick_account', description: 'Picks an account.', parameters, execute: ({ account }: { account: string }) => ({ picked: account }) });
    const accounts: Record<string, string[] | undefined> = { alice: ['ACC-ALICE-1'], bob: ['ACC-BOB-9'], carol: undefined };
    const model = new ScriptedModel((request) => {
      const answered = request.contents.at(-1)!.parts.find((p) => p.functionResponse);
      if (answered) return JSON.stringify(answered.functionResponse!.response);
      const who = request.contents.at(-1)!.parts[0].text!;
      return { calls: [{ name: 'pick_account', args: { account: accounts[who]?.[0] ?? 'ACC-ANY' } }] };
    });
    const beforeModel: BeforeModelCallback = ({ context, request }) => {
      const declaration = request.tools.find((t) => t.name === 'pick_account')!;
      const mine = accounts[context.userId];
      if (mine) (declaration.parameters.properties as Record<string, JsonSchema>).account.enum = mine;
      declaration.description += ` (user ${context.userId})`;
    };
    const original = JSON.stringify(pick.declaration());
    const runner = new Runner({ appName: 'bank', agent: new LlmAgent({ name: 'a', model, tools: [pick], callbacks: { beforeModel } }) });

    const answers: string[] = [];
    const sent: string[] = [];
    for (const userId of ['alice', 'bob', 'carol']) {
      const answer = await runner.ask({ userId, sessionId: `s-${userId}`, newMessage: message(userId) });
      answers.push(answer.text);
      sent.push(JSON.stringify(model.requests.at(-1)!.tools[0]));
    }

    expect(answers).toEqual(['{"picked":"ACC-ALICE-1"}', '{"picked":"ACC-BOB-9"}', '{"picked":"ACC-ANY"}']);
    expect(sent[1]).toContain('["ACC-BOB-9"]');
    expect(sent[1]).not.toContain('ALICE');
    expect(sent[2]).not.toContain('enum');
    expect(sent[2]).toContain('"Picks an account. (user carol)"');
    expect(JSON.stringify(pick.declaration())).toBe(original);
    expect(pick.parameters).toEqual({ type: 'object', properties: { account: { type: 'string' } }, required: ['account'] });
  });

  it("a beforeModel's edit of the response schema or config stays in its own request; onModelError gets a request of its own too", async () => {
    const model = new ScriptedModel((request, i) => {
      if (i === 1) throw new Error('overloaded');
      return JSON.stringify({ city: request.config?.temperature === 1.5 ? 'vip' : 'x' });
    });
    const agent = new LlmAgent({
      name: 'a',
      model,
      generationConfig: { temperature: 0.1, stopSequences: ['END'] },
      outputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      callbacks: {
        beforeModel: ({ context, request }) => {
          if (context.userId !== 'vip') return;
          request.config!.temperature = 1.5;
          request.config!.stopSequences!.push('VIP');
          request.responseSchema!.schema.description = 'VIP ONLY';
        },
        onModelError: ({ request }) => {
          request.responseSchema!.schema.description = 'edited while recovering';
          return { content: { role: 'model', parts: [{ text: '{"city":"recovered"}' }] } };
        },
      },
    });
    const runner = new Runner({ appName: 'app', agent });
    const schemaOf = () => JSON.stringify(model.requests.at(-1)!.responseSchema);
    const configOf = () => JSON.stringify(model.requests.at(-1)!.config);

    await runner.ask({ userId: 'vip', sessionId: 'vip', newMessage: message('hi') });
    expect(schemaOf()).toContain('VIP ONLY');
    expect(configOf()).toBe('{"temperature":1.5,"stopSequences":["END","VIP"]}');

    const recovered = await runner.ask({ userId: 'basic', sessionId: 'basic', newMessage: message('hi') });
    expect(recovered.text).toBe('{"city":"recovered"}');
    await runner.ask({ userId: 'basic', sessionId: 'basic', newMessage: message('again') });
    expect(schemaOf()).not.toContain('VIP ONLY');
    expect(schemaOf()).not.toContain('recovering');
    expect(configOf()).toBe('{"temperature":0.1,"stopSequences":["END"]}');
    expect(agent.generationConfig).toEqual({ temperature: 0.1, stopSequences: ['END'] });
  });
});

describe('what a tool\'s processRequest hook may edit of a request', () => {
  it("a hook's per-user edit of a tool declaration, the config or the response schema reaches neither the next user's request, nor argument validation, nor the agent", async () => {
    const parameters: JsonSchema = { type: 'object', properties: { account: { type: 'string' } }, required: ['account'] };
    const pick = functionTool({ name: 'pick_account', description: 'Picks an account.', parameters, execute: ({ account }: { account: string }) => ({ picked: account }) });
    const accounts: Record<string, string[] | undefined> = { alice: ['ACC-ALICE-1'], bob: ['ACC-BOB-9'], carol: undefined };
    class Narrow extends BaseTool {
      readonly [REQUEST_ONLY_TOOL] = true;
      readonly name = 'narrow';
      readonly description = 'Narrows the accounts to the user\'s own.';
      readonly parameters: JsonSchema = { type: 'object', properties: {} };
      run(): Record<string, unknown> {
        return {};
      }
      override processRequest(context: ToolContext, request: LlmRequest): void {
        const declaration = request.tools.find((t) => t.name === 'pick_account')!;
        const mine = accounts[context.userId];
        if (mine) (declaration.parameters.properties as Record<string, JsonSchema>).account.enum = mine;
        declaration.description += ` (user ${context.userId})`;
        request.config!.stopSequences!.push(context.userId);
        request.responseSchema!.schema.description = `for ${context.userId}`;
      }
    }
    const model = new ScriptedModel((request) => {
      const answered = request.contents.at(-1)!.parts.find((p) => p.functionResponse);
      if (answered) return JSON.stringify(answered.functionResponse!.response);
      const who = request.contents.at(-1)!.parts[0].text!;
      return { calls: [{ name: 'pick_account', args: { account: accounts[who]?.[0] ?? 'ACC-ANY' } }] };
    });
    const outputSchema: JsonSchema = { type: 'object', properties: { picked: { type: 'string' } }, required: ['picked'] };
    const original = JSON.stringify(pick.declaration());
    const agent = new LlmAgent({ name: 'a', model, tools: [pick, new Narrow()], generationConfig: { stopSequences: ['END'] }, outputSchema });
    const runner = new Runner({ appName: 'bank', agent });

    const answers: string[] = [];
    const sent: string[] = [];
    for (const userId of ['alice', 'bob', 'carol']) {
      const answer = await runner.ask({ userId, sessionId: `s-${userId}`, newMessage: message(userId) });
      answers.push(answer.text);
      const request = model.requests.at(-1)!;
      sent.push(JSON.stringify([request.tools, request.config, request.responseSchema]));
    }

    expect(answers).toEqual(['{"picked":"ACC-ALICE-1"}', '{"picked":"ACC-BOB-9"}', '{"picked":"ACC-ANY"}']);
    expect(sent[1]).toContain('["ACC-BOB-9"]');
    expect(sent[1]).toContain('["END","bob"]');
    expect(sent[1]).toContain('"for bob"');
    expect(sent[1]).not.toContain('alice');
    expect(sent[2]).not.toContain('enum');
    expect(sent[2]).toContain('"Picks an account. (user carol)"');
    expect(JSON.stringify(pick.declaration())).toBe(original);
    expect(pick.parameters).toEqual({ type: 'object', properties: { account: { type: 'string' } }, required: ['account'] });
    expect(agent.generationConfig).toEqual({ stopSequences: ['END'] });
    expect(JSON.stringify(agent.resolvedOutputSchema)).not.toContain('for ');
  });

  /** A request-only tool whose hook redacts every digit of every text and function response in the conversation. */
  class Redact extends BaseTool {
    readonly [REQUEST_ONLY_TOOL] = true;
    readonly name = 'redact';
    readonly description = 'Redacts card numbers for the model.';
    readonly parameters: JsonSchema = { type: 'object', properties: {} };
    run(): Record<string, unknown> {
      return {};
    }
    override processRequest(_context: ToolContext, request: LlmRequest): void {
      for (const content of request.contents) {
        for (const part of content.parts) {
          if (part.text) part.text = part.text.replace(/\d{4}/g, '####');
          if (part.functionResponse) (part.functionResponse.response as Record<string, unknown>).v = '[hidden]';
        }
      }
    }
  }

  it("a hook's edit of an earlier message reaches the model, but neither the stored session nor the events already yielded", async () => {
    const model = new ScriptedModel((_request, i) => (i === 0 ? 'noted, card 4111' : 'done'));
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [new Redact()] }) });

    const first = await events(runner, 'u', 's', 'my card 4111');
    const firstAsYielded = partsOf(first);
    await events(runner, 'u', 's', 'and again');
    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });

    // The model got the redacted conversation...
    const sent = JSON.stringify(model.requests.at(-1)!.contents);
    expect(sent).not.toContain('4111');
    expect(sent).toContain('my card ####');
    expect(sent).toContain('noted, card ####');
    // ...the session and the events yielded before keep what was said.
    expect(session!.events.map((e) => e.text())).toEqual(['my card 4111', 'noted, card 4111', 'and again', 'done']);
    expect(partsOf(first)).toEqual(firstAsYielded);
    expect(first.at(-1)!.text()).toBe('noted, card 4111');
  });

  it('with a hook and a beforeModel, the model gets both edits and neither reaches the stored session', async () => {
    const echo = functionTool({ name: 'echo', description: 'Echoes.', parameters: { type: 'object', properties: { v: { type: 'string' } } }, execute: ({ v }: { v?: string }) => ({ v }) });
    const model = new ScriptedModel((_request, i) => (i === 0 ? { calls: [{ name: 'echo', args: { v: 'card 4111' } }] } : 'ok'));
    const seenByCallback: string[] = [];
    const beforeModel: BeforeModelCallback = ({ request }) => {
      seenByCallback.push(JSON.stringify(request.contents));
      for (const content of request.contents) for (const part of content.parts) if (part.functionCall) part.functionCall.args = { v: '[redacted]' };
      request.contents.push({ role: 'user', parts: [{ text: 'be brief' }] });
    };
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'a', model, tools: [echo, new Redact()], callbacks: { beforeModel } }) });

    const yielded = await events(runner, 'u', 's', 'my card 4111');
    const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });

    // The callback sees the hook's edit; the model gets the hook's and the callback's.
    expect(seenByCallback.at(-1)).toContain('my card ####');
    expect(seenByCallback.at(-1)).toContain('[hidden]');
    expect(seenByCallback.at(-1)).not.toContain('be brief');
    const sent = JSON.stringify(model.requests.at(-1)!.contents);
    expect(sent).not.toContain('4111');
    expect(sent).toContain('[hidden]');
    expect(sent).toContain('[redacted]');
    expect(model.requests.at(-1)!.contents.at(-1)).toEqual({ role: 'user', parts: [{ text: 'be brief' }] });
    // The session and the yielded events keep what was said and done.
    expect(partsOf(session!.events.slice(1))).toEqual(partsOf(yielded));
    expect(session!.events.map((e) => e.content?.parts.length)).toEqual([1, 1, 1, 1]);
    expect(session!.events[0].text()).toBe('my card 4111');
    expect(session!.events[1].functionCalls()[0].args).toEqual({ v: 'card 4111' });
    expect(session!.events[2].functionResponses()[0].response).toEqual({ v: 'card 4111' });
  });
});

describe('editableRequest', () => {
  /** Every object reachable from `value`, each once. */
  function objectsOf(value: unknown, found = new Set<object>()): Set<object> {
    if (typeof value !== 'object' || value === null || found.has(value)) return found;
    found.add(value);
    for (const member of Object.values(value)) objectsOf(member, found);
    return found;
  }

  it('copies what structuredClone would, sharing no object with the request: a Date, a null-prototype object, an own __proto__ key, undefined, deep nesting', () => {
    let deep: Record<string, unknown> = { leaf: 'bottom' };
    for (let i = 0; i < 200; i++) deep = { inner: deep };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { k: [1, { v: 2 }] });
    const response = JSON.parse('{"__proto__": {"polluted": true}, "ok": true}') as Record<string, unknown>;
    Object.assign(response, { at: new Date(0), deep, bare, nothing: undefined });
    const request: LlmRequest = {
      contents: [message('hi'), { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'f', response } }] }],
      tools: [{ name: 'f', description: 'F.', parameters: { type: 'object', properties: { a: { type: 'string', enum: ['x'] } } } }],
      providerTools: [{ kind: 'provider-tool', provider: 'p', name: 'web_search', config: { type: 'web_search', domains: ['a.example'] } }],
      config: { stopSequences: ['END'] },
      responseSchema: { name: 'answer', schema: { type: 'object' } },
      toolChoice: { type: 'tool', name: 'f' },
    };

    const copy = editableRequest(request);

    expect(copy).toEqual(structuredClone(request));
    const copied = copy.contents[1].parts[0].functionResponse!.response as Record<string, unknown>;
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.keys(copied)).toContain('__proto__');
    expect(Object.prototype.toString.call(copied.at)).toBe('[object Date]'); // (structuredClone's Date is of another realm under jest)
    expect((copied.at as Date).getTime()).toBe(0);
    expect('nothing' in copied).toBe(true);
    const shared = objectsOf(request);
    for (const object of objectsOf(copy)) expect(shared.has(object)).toBe(false);
  });

  it('copies a cycle without sharing an object with it', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const request: LlmRequest = { contents: [{ role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'f', response: { cyclic } } }] }], tools: [] };

    const copy = editableRequest(request);

    let copied = (copy.contents[0].parts[0].functionResponse!.response as Record<string, unknown>).cyclic as Record<string, unknown>;
    for (let i = 0; i < 200; i++) {
      expect(copied).not.toBe(cyclic);
      expect(copied.name).toBe('loop');
      copied = copied.self as Record<string, unknown>;
    }
  });
});
