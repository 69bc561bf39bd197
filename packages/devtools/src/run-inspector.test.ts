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
