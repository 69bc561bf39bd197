import { providerDataOf, providerDataPart } from './provider-data';

describe('providerDataPart / providerDataOf', () => {
  it('wraps a plain-JSON copy of the content and gives it back only to its provider', () => {
    const block = { type: 'server_tool_use', id: 's1', input: { query: 'x' }, dropped: undefined };
    const part = providerDataPart('anthropic', block);
    expect(part).toEqual({ providerData: { provider: 'anthropic', data: { type: 'server_tool_use', id: 's1', input: { query: 'x' } } } });
    expect(part.providerData!.data).not.toBe(block);
    expect(Object.getPrototypeOf(part.providerData!.data.input)).toBe(Object.prototype);
    expect(providerDataOf(part, 'anthropic')).toEqual(part.providerData!.data);
    expect(providerDataOf(part, 'gemini')).toBeUndefined();
    expect(providerDataOf({ text: 'hi' }, 'anthropic')).toBeUndefined();
  });
});
