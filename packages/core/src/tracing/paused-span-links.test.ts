import { Event } from '../events/event';
import { PAUSED_TRACEPARENT_KEY } from './gen-ai-conventions';
import { formatTraceparent, parseTraceparent, pausedSpanContexts } from './paused-span-links';

const traceId = '0af7651916cd43dd8448eb211c80319c';
const spanId = 'b7ad6b7169203331';

describe('traceparent', () => {
  it('formats and parses a span context', () => {
    const text = formatTraceparent({ traceId, spanId, traceFlags: 1 });
    expect(text).toBe(`00-${traceId}-${spanId}-01`);
    expect(parseTraceparent(text)).toEqual({ traceId, spanId, traceFlags: 1, isRemote: true });
  });

  it.each([undefined, 42, '', `01-${traceId}-${spanId}-01`, `00-${traceId.toUpperCase()}-${spanId}-01`, `00-${'0'.repeat(32)}-${spanId}-01`, `00-${traceId}-${'0'.repeat(16)}-01`, `00-${traceId}-${spanId}`])(
    'refuses %p',
    (value) => expect(parseTraceparent(value)).toBeUndefined(),
  );
});

describe('pausedSpanContexts', () => {
  const pause = (ids: string[], traceparent?: unknown) =>
    Event.create({ invocationId: 'inv-1', author: 'clerk', longRunningToolIds: ids, customMetadata: traceparent === undefined ? undefined : { [PAUSED_TRACEPARENT_KEY]: traceparent } });
  const answer = (...ids: string[]) => ({ role: 'user' as const, parts: ids.map((id) => ({ functionResponse: { id, name: 'x', response: {} } })) });

  it('finds the pause each answer names, one context per paused invocation', () => {
    const other = 'c7ad6b7169203331';
    const events = [pause(['a', 'b'], `00-${traceId}-${spanId}-01`), pause(['c'], `00-${traceId}-${other}-00`)];
    expect(pausedSpanContexts(events, answer('a', 'b', 'c')).map((c) => c.spanId)).toEqual([spanId, other]);
  });

  it('finds nothing for text, unknown ids, or pauses without a trace context', () => {
    expect(pausedSpanContexts([pause(['a'], `00-${traceId}-${spanId}-01`)], { role: 'user', parts: [{ text: 'hi' }] })).toEqual([]);
    expect(pausedSpanContexts([pause(['a'], `00-${traceId}-${spanId}-01`)], answer('z'))).toEqual([]);
    expect(pausedSpanContexts([pause(['a'])], answer('a'))).toEqual([]);
    expect(pausedSpanContexts([pause(['a'], 'garbage')], answer('a'))).toEqual([]);
  });
});
