import { RunInspector } from './run-inspector';

describe('RunInspector', () => {
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
});
