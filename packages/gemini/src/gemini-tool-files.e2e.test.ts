import { toolFile } from '@toolsmith/core';
import { SAMPLE_FILES, fileReturningTool, requestAfterToolCall } from '@toolsmith/core/testing';
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
