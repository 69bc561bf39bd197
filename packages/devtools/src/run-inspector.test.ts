import { RunInspector } from './run-inspector';

describe('RunInspector', () => {
  it('lists spans in the order they started, also when they started within one millisecond (and ended children first)', () => {
    const inspector = new RunInspector();
    const tracer = inspector.tracerProvider.getTracer('test');
    const attributes = { 'gen_ai.conversation.id': 's-1' };
    // One wall-clock millisecond for all three, as an invocation, its agent and its first model call often have.
    const startTime = 1_700_000_000_000;
    const invocation = tracer.startSpan('toolsmith.invocation', { attributes, startTime });
    const agent = tracer.startSpan('invoke_agent a', { attributes, startTime });
    const chat = tracer.startSpan('chat m', { attributes, startTime });
    for (const span of [chat, agent, invocation]) span.end(startTime + 1);
    expect(inspector.inspect('s-1').spans.map((span) => span.name)).toEqual(['toolsmith.invocation', 'invoke_agent a', 'chat m']);
  });

  it('drops attributes whose names suggest a secret before it keeps a span, and files spans by session', () => {
    const inspector = new RunInspector();
    const tracer = inspector.tracerProvider.getTracer('test');
    const span = tracer.startSpan('chat some-model', {
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.conversation.id': 's-1',
        'gen_ai.usage.input_tokens': 12,
        'http.request.header.authorization': 'Bearer abc',
        'http.request.header.x-api-key': 'sk-1',
        'x-goog-api-key': 'g-1',
        'app.api_key': 'k',
        'db.password': 'p',
        'http.request.header.cookie': 'c',
        'auth.credential': 'cred',
        'client.secret': 's',
      },
    });
    span.end();
    const { spans, modelCalls } = inspector.inspect('s-1');
    expect(spans.map((s) => s.attributes)).toEqual([{ 'gen_ai.operation.name': 'chat', 'gen_ai.conversation.id': 's-1', 'gen_ai.usage.input_tokens': 12 }]);
    expect(modelCalls).toEqual([expect.objectContaining({ model: '', tokens: { input: 12 } })]);
    expect(inspector.inspect('s-2')).toEqual({ spans: [], modelCalls: [] });
  });

  it('drops pwd, auth, bearer, access and private key attributes, redacts them inside JSON, and hides a password inside a URL', () => {
    const inspector = new RunInspector();
    const tracer = inspector.tracerProvider.getTracer('test');
    const names = ['db.pwd', 'auth', 'http.request.header.x-auth', 'app.bearer', 'aws.accessKey', 'aws.access_key', 'app.privateKey'];
    const args = { pwd: 'PW-1', auth: 'AUTH-2', bearer: 'BEARER-3', accessKey: 'AK-4', access_key: 'AK-5', privateKey: 'PK-6', db: 'postgres://admin:URLPW-7@db.example/app', author: 'ada' };
    const span = tracer.startSpan('execute_tool lookup', {
      attributes: {
        'gen_ai.conversation.id': 's-1',
        ...Object.fromEntries(names.map((name, index) => [name, `ATTR-${index}`])),
        'gen_ai.tool.call.arguments': JSON.stringify(args),
        'server.url': 'https://u:URLPW-8@api.example/v1',
        'app.author': 'ada',
      },
    });
    span.end();
    const [kept] = inspector.inspect('s-1').spans;
    const shown = JSON.stringify(kept);
    for (const secret of [...names.map((_name, index) => `ATTR-${index}`), 'PW-1', 'AUTH-2', 'BEARER-3', 'AK-4', 'AK-5', 'PK-6', 'URLPW-7', 'URLPW-8']) expect(shown).not.toContain(secret);
    expect(kept!.attributes['server.url']).toBe('https://u:[redacted]@api.example/v1');
    expect(kept!.attributes['app.author']).toBe('ada');
    expect(JSON.parse(kept!.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({
      pwd: '[redacted]', auth: '[redacted]', bearer: '[redacted]', accessKey: '[redacted]', access_key: '[redacted]', privateKey: '[redacted]', db: 'postgres://admin:[redacted]@db.example/app', author: 'ada',
    });
  });

  it('redacts secret-named properties and secret-looking text inside the JSON attributes and error message before it keeps a span', () => {
    const inspector = new RunInspector();
    const tracer = inspector.tracerProvider.getTracer('test');
    const args = { username: 'ada', password: 'hunter2-PW', note: 'my api key is sk-proj-NOTELEAK1234567890abcdef' };
    const tool = tracer.startSpan('execute_tool login', {
      attributes: {
        'gen_ai.conversation.id': 's-1',
        'gen_ai.tool.call.arguments': JSON.stringify(args),
        'gen_ai.tool.call.result': JSON.stringify({ ok: true, sessionToken: 'tok-RESULT-SECRET-123' }),
        'app.labels': ['plain', 'Bearer abcdefghijkl'],
      },
    });
    tool.setStatus({ code: 2, message: '401: invalid x-api-key sk-ant-api03-REALLOOKINGKEY12345' });
    tool.end();
    const chat = tracer.startSpan('chat m', {
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.conversation.id': 's-1',
        'gen_ai.input.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', name: 'login', arguments: args }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Your key sk-proj-ANSWERLEAK1234567890abcd is set.' }] }]),
        'app.note': 'not JSON: {password: sk-live-abcdefghijklmnop',
      },
    });
    chat.addEvent('toolsmith.provider.attempt', {
      'toolsmith.provider.attempt': 1,
      'toolsmith.provider.latency_ms': 3,
      'toolsmith.provider.request.body': JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'tool_result', content: '{"pin":"1","api_key":"k-1"}' }] }], input: { password: 'hunter2-PW' } }),
    });
    chat.end();
    const inspection = JSON.stringify(inspector.inspect('s-1'));
    for (const secret of ['hunter2-PW', 'sk-proj-NOTELEAK', 'tok-RESULT-SECRET-123', 'sk-proj-ANSWERLEAK', 'REALLOOKINGKEY', 'abcdefghijkl', 'k-1']) expect(inspection).not.toContain(secret);
    const [toolSpan, chatSpan] = inspector.inspect('s-1').spans;
    expect(JSON.parse(toolSpan!.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ username: 'ada', password: '[redacted]', note: 'my api key is [redacted]' });
    expect(JSON.parse(toolSpan!.attributes['gen_ai.tool.call.result'] as string)).toEqual({ ok: true, sessionToken: '[redacted]' });
    expect(toolSpan!.attributes['app.labels']).toEqual(['plain', 'Bearer [redacted]']);
    expect(toolSpan!.statusMessage).toBe('401: invalid x-api-key [redacted]');
    expect(chatSpan!.attributes['app.note']).toBe('not JSON: {password: [redacted]');
    expect(inspector.inspect('s-1').modelCalls[0]!.attempts[0]!.body).toEqual({ messages: [{ role: 'user', content: [{ type: 'tool_result', content: '{"pin":"1","api_key":"[redacted]"}' }] }], input: { password: '[redacted]' } });
  });

  it('keeps the last 500 runs (traces): the oldest is dropped first', () => {
    const inspector = new RunInspector();
    const tracer = inspector.tracerProvider.getTracer('test');
    for (let run = 0; run <= 500; run++) tracer.startSpan(`run ${run}`, { attributes: { 'gen_ai.conversation.id': 's' } }).end();
    const names = inspector.inspect('s').spans.map((span) => span.name);
    expect(names).toHaveLength(500);
    expect(names).not.toContain('run 0');
    expect(names).toContain('run 1');
    expect(names).toContain('run 500');
  });
});
