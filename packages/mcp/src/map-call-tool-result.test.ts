import { mapCallToolResult } from './map-call-tool-result';
import { McpToolError } from './mcp-errors';

describe('mapCallToolResult', () => {
  it('prefers structured content, then joins text parts as { output }', () => {
    expect(mapCallToolResult('t', { content: [{ type: 'text', text: 'ignored' }], structuredContent: { a: 1 } })).toEqual({ a: 1 });
    expect(mapCallToolResult('t', { content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] })).toEqual({ output: 'one\ntwo' });
    expect(mapCallToolResult('t', { content: [] })).toEqual({ output: '' });
  });

  it('keeps other content kinds beside the text', () => {
    const image = { type: 'image' as const, data: 'aGVsbG8=', mimeType: 'image/png' };
    expect(mapCallToolResult('t', { content: [{ type: 'text', text: 'a chart' }, image] })).toEqual({ output: 'a chart', content: [image] });
  });

  it("throws McpToolError for isError results, keeping a Toolsmith server's error body", () => {
    const plain = (() => {
      try {
        return mapCallToolResult('remote_t', { isError: true, content: [{ type: 'text', text: 'disk full' }] });
      } catch (error) {
        return error;
      }
    })();
    expect(plain).toBeInstanceOf(McpToolError);
    expect(plain).toMatchObject({ code: 'MCP_TOOL_ERROR', message: 'Tool "remote_t" failed: disk full', details: undefined });

    const remote = { code: 'INVALID_ARGUMENTS', message: 'Invalid arguments', details: { problems: [] } };
    expect(() => mapCallToolResult('t', { isError: true, content: [], structuredContent: { error: remote } })).toThrow(
      expect.objectContaining({ message: 'Tool "t" failed: Invalid arguments', details: { remote } }),
    );
    expect(() => mapCallToolResult('t', { isError: true, content: [] })).toThrow('the MCP tool reported an error');
    // For a tool with an output schema the body travels in `_meta` (clients check structured content against the schema).
    expect(() => mapCallToolResult('t', { isError: true, content: [], _meta: { 'toolsmith/error': remote } })).toThrow(
      expect.objectContaining({ message: 'Tool "t" failed: Invalid arguments', details: { remote } }),
    );
  });
});
