import { ToolResult, toolFile, toolResult } from '@toolsmith/core';
import { mapCallToolResult } from './map-call-tool-result';
import { McpToolError } from './mcp-errors';

describe('mapCallToolResult', () => {
  it('prefers structured content, then joins text parts as { output }', () => {
    expect(mapCallToolResult('t', { content: [{ type: 'text', text: 'ignored' }], structuredContent: { a: 1 } })).toEqual({ a: 1 });
    expect(mapCallToolResult('t', { content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] })).toEqual({ output: 'one\ntwo' });
    expect(mapCallToolResult('t', { content: [] })).toEqual({ output: '' });
  });

  it('turns image, audio and blob resources into files of a ToolResult; resource links and text resources become text, in order', () => {
    const link = { type: 'resource_link' as const, uri: 'file:///data/q3.csv', name: 'q3.csv' };
    const textResource = { type: 'resource' as const, resource: { uri: 'memo://1', mimeType: 'text/plain', text: 'a memo' } };
    const result = mapCallToolResult('t', {
      content: [
        { type: 'text', text: 'a chart' },
        { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'toolsmith://tool-files/c1/q3%20report.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
        { type: 'resource', resource: { uri: 'blob://x', blob: 'AAE=' } },
        link,
        textResource,
      ],
    });
    expect(result).toBeInstanceOf(ToolResult);
    const { value, files } = result as ToolResult;
    expect(value).toEqual({ output: 'a chart\n[resource link] q3.csv <file:///data/q3.csv>\n[resource memo://1 (text/plain)]\na memo' });
    expect(files.map((file) => file.toPart())).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'aGVsbG8=' } },
      { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=', displayName: 'q3 report.pdf' } },
      { inlineData: { mimeType: 'application/octet-stream', data: 'AAE=', displayName: 'x' } },
    ]);
    // With structured content, the files go beside it.
    const structured = mapCallToolResult('t', { content: [{ type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' }], structuredContent: { pages: 1 } });
    expect(structured).toEqual(toolResult({ pages: 1 }, [toolFile({ mimeType: 'image/png', data: 'aGVsbG8=' })]));
    // Without files, a plain object; a link with a title, type and description says all of them.
    const described = { ...link, title: 'Q3 figures', mimeType: 'text/csv', description: 'Revenue by region' };
    expect(mapCallToolResult('t', { content: [{ type: 'text', text: 'hi' }, described] })).toEqual({
      output: 'hi\n[resource link] Q3 figures <file:///data/q3.csv> (text/csv): Revenue by region',
    });
    // With structured content (a Toolsmith server sends its JSON as text too), the links go beside its members.
    expect(mapCallToolResult('t', { content: [{ type: 'text', text: '{"written":"q3"}' }, link], structuredContent: { written: 'q3' } })).toEqual({
      written: 'q3',
      mcpResources: ['[resource link] q3.csv <file:///data/q3.csv>'],
    });
    expect(mapCallToolResult('t', { content: [link], structuredContent: { mcpResources: 'its own' } })).toEqual({ mcpResources: 'its own' });
    // A content kind this version does not know rides along as it came.
    const future = { type: 'hologram', data: 'x' };
    expect(mapCallToolResult('t', { content: [future] } as never)).toEqual({ output: '', content: [future] });
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
    // A Toolsmith server's text says the tool failed (without its name, which the call carries): it is not said twice.
    expect(() => mapCallToolResult('t', { isError: true, content: [{ type: 'text', text: 'The tool failed: boom' }] })).toThrow(
      expect.objectContaining({ message: 'Tool "t" failed: boom' }),
    );
    expect(() => mapCallToolResult('t', { isError: true, content: [{ type: 'text', text: 'The tool failed.' }] })).toThrow(
      expect.objectContaining({ message: 'Tool "t" failed.' }),
    );
    // An older Toolsmith server's text names the tool as served: the prefix is not doubled either.
    expect(() => mapCallToolResult('t', { isError: true, content: [{ type: 'text', text: 'Tool "remote" failed: boom' }] })).toThrow(
      expect.objectContaining({ message: 'Tool "remote" failed: boom' }),
    );
    // The remote message is stated by the error's message when it is the reason (the model reads it once); a text of its own is not.
    const thrown = (result: Parameters<typeof mapCallToolResult>[1]) => {
      try {
        mapCallToolResult('t', result);
      } catch (error) {
        return error as McpToolError;
      }
      throw new Error('no error');
    };
    expect(thrown({ isError: true, content: [], structuredContent: { error: remote } }).statedDetails).toEqual([['remote', 'message']]);
    expect(thrown({ isError: true, content: [{ type: 'text', text: 'Invalid arguments' }], structuredContent: { error: remote } }).statedDetails).toEqual([['remote', 'message']]);
    expect(thrown({ isError: true, content: [{ type: 'text', text: 'Bad call' }], structuredContent: { error: remote } }).statedDetails).toBeUndefined();
    expect(thrown({ isError: true, content: [{ type: 'text', text: 'disk full' }] }).statedDetails).toBeUndefined();
    // For a tool with an output schema the body travels in `_meta` (clients check structured content against the schema).
    expect(() => mapCallToolResult('t', { isError: true, content: [], _meta: { 'toolsmith/error': remote } })).toThrow(
      expect.objectContaining({ message: 'Tool "t" failed: Invalid arguments', details: { remote } }),
    );
  });
  it("keeps a file's media type as its essence, lower-cased (a parameter or a malformed type fails no call: application/octet-stream)", () => {
    const result = mapCallToolResult('t', {
      content: [
        { type: 'text', text: 'here' },
        { type: 'audio', mimeType: 'Audio/WAV; codecs=1', data: 'UklGRg==' },
        { type: 'image', mimeType: 'png', data: 'iVBORw0KGgo=' },
        { type: 'resource', resource: { uri: 'file:///n.txt', mimeType: 'text/plain; charset=utf-8', blob: 'aGk=' } },
        { type: 'audio', mimeType: `audio/${'x'.repeat(200)}`, data: 'UklGRg==' },
      ],
    }) as ToolResult;
    expect(result.value).toEqual({ output: 'here' });
    expect(result.files.map((file) => file.mimeType)).toEqual(['audio/wav', 'application/octet-stream', 'text/plain', 'application/octet-stream']);
  });
  it("re-encodes a text blob in another charset as UTF-8, since the charset is not kept (a Latin-1 'Größe' is read as UTF-8 by providers)", () => {
    const latin1 = Buffer.from('Größe', 'latin1').toString('base64');
    const result = mapCallToolResult('t', { content: [{ type: 'resource', resource: { uri: 'file:///g.txt', mimeType: 'text/plain; charset="ISO-8859-1"', blob: latin1 } }] }) as ToolResult;
    expect(result.files[0].mimeType).toBe('text/plain');
    expect(Buffer.from(result.files[0].data, 'base64').toString('utf8')).toBe('Größe');
    const unknown = mapCallToolResult('t', { content: [{ type: 'resource', resource: { uri: 'file:///g.txt', mimeType: 'text/plain; charset=x-nonesuch', blob: latin1 } }] }) as ToolResult;
    expect(unknown.files[0].data).toBe(latin1);
  });
});
