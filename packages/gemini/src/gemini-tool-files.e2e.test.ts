import { LlmAgent, Runner, toolFile } from '@toolsmith/core';
import { SAMPLE_FILES, type WireServer, fileReturningTool, requestAfterToolCall, startWireServer } from '@toolsmith/core/testing';
import { GeminiModel, type GeminiModelOptions } from './gemini-model';
import { geminiWireCodec } from './__fixtures__/gemini-wire-codec';

const { png: PNG, pdf: PDF } = SAMPLE_FILES;
const report = fileReturningTool(() => [toolFile({ mimeType: 'image/png', data: Buffer.from(PNG, 'base64'), name: 'chart.png' }), toolFile({ mimeType: 'application/pdf', data: PDF })]);

/** The last content of the request that carried the tool's result. */
async function resultContent(options: Partial<GeminiModelOptions> = {}) {
  const request = await requestAfterToolCall({
    createModel: (baseURL) =>
      new GeminiModel({
        model: 'gemini-3-flash',
        apiKey: 'test-key',
        baseUrl: baseURL,
        retry: false,
        // The SDK's own fetch setup needs undici's global dispatcher, which jest's VM context cannot see.
        httpOptions: { fetch: (input, init) => fetch(input, init) },
        ...options,
      }),
    wire: geminiWireCodec,
    tools: [report],
    call: { id: 'call-r1', name: 'render_report', args: {} },
  });
  return request.body.contents.at(-1);
}

describe('files from tools on the Gemini wire', () => {
  it('by default, inside the function response: functionResponse.parts with inlineData (multimodal function responses)', async () => {
    expect(await resultContent()).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'call-r1',
            name: 'render_report',
            response: { pages: 1 },
            parts: [{ inlineData: { mimeType: 'image/png', data: PNG, displayName: 'chart.png' } }, { inlineData: { mimeType: 'application/pdf', data: PDF } }],
          },
        },
      ],
    });
  });

  it('with toolFilesInFunctionResponse: false, as inlineData parts after the function response, introduced by a text part', async () => {
    expect(await resultContent({ toolFilesInFunctionResponse: false })).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'call-r1', name: 'render_report', response: { pages: 1 } } },
        { text: 'The files returned by the call call-r1 of tool "render_report":' },
        { inlineData: { mimeType: 'image/png', data: PNG } },
        { inlineData: { mimeType: 'application/pdf', data: PDF } },
      ],
    });
  });
});

describe('a file Gemini does not take never reaches it: the session keeps working', () => {
  const ZIP = Buffer.from('PK\x03\x04', 'latin1').toString('base64');
  const zipTool = fileReturningTool(() => [toolFile({ mimeType: 'application/zip', data: Buffer.from(ZIP, 'base64'), name: 'all.zip' })]);
  const NOTE = '[The tool returned the file "all.zip" (application/zip, 4 bytes), which Gemini cannot take as input; it was left out.]';
  let server: WireServer;
  afterEach(() => server.close());

  /** Every inlineData of a request, in a user turn or inside a function response. */
  type WireData = { mimeType: string };
  type WirePart = { inlineData?: WireData; functionResponse?: { parts?: Array<{ inlineData: WireData }> } };
  const inlineData = (body: { contents: Array<{ parts: WirePart[] }> }): WireData[] =>
    body.contents.flatMap((content) => content.parts.flatMap((part) => [...(part.inlineData ? [part.inlineData] : []), ...(part.functionResponse?.parts ?? []).map((inner) => inner.inlineData)]));

  it.each([true, false])('toolFilesInFunctionResponse: %s: the request after a ZIP holds a note in its place, and the next turn is answered', async (toolFilesInFunctionResponse) => {
    // Gemini answers a request holding a ZIP with 400 INVALID_ARGUMENT; the session would send it on every later turn.
    server = await startWireServer((request, index) => {
      if (inlineData(request.body).some((data) => data.mimeType === 'application/zip')) return geminiWireCodec.error(400, 'Unsupported MIME type: application/zip');
      return geminiWireCodec.reply(index === 0 ? { calls: [{ id: 'call-r1', name: 'render_report', args: {} }] } : { text: `Answer ${index}.` }, request);
    });
    const model = new GeminiModel({ model: 'gemini-3-flash', apiKey: 'test-key', baseUrl: server.url, retry: false, toolFilesInFunctionResponse, httpOptions: { fetch: (input, init) => fetch(input, init) } });
    const runner = new Runner({ appName: 'files', agent: new LlmAgent({ name: 'agent', model, tools: [zipTool] }) });
    const send = async (text: string) => {
      let last;
      for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text }] } })) last = event;
      return last;
    };

    expect((await send('Zip the reports.'))?.text()).toBe('Answer 1.');
    expect(server.requests[1].body.contents.at(-1).parts.slice(1)).toEqual([{ text: 'The files returned by the call call-r1 of tool "render_report":' }, { text: NOTE }]);
    expect((await send('Thanks.'))?.text()).toBe('Answer 2.');
    expect(server.requests[2].body.contents.flatMap((content: { parts: unknown[] }) => content.parts)).toContainEqual({ text: NOTE });
    expect(server.requests).toHaveLength(3);
    expect(server.handlerErrors).toEqual([]);
  });
});
