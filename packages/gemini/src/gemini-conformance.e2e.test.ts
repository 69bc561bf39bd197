import { runAdapterConformance } from '@toolsmith/core/testing';
import { geminiWireCodec } from './__fixtures__/gemini-wire-codec';
import { GeminiModel } from './gemini-model';

runAdapterConformance({
  name: 'gemini',
  createModel: (baseURL) =>
    new GeminiModel({
      model: 'gemini-2.5-flash',
      apiKey: 'test-key',
      baseUrl: baseURL,
      retry: false, // the kit checks one attempt per request
      // The SDK's own fetch setup needs undici's global dispatcher, which jest's VM context cannot see.
      httpOptions: { fetch: (input, init) => fetch(input, init) },
    }),
  wire: geminiWireCodec,
  refusedTool: { name: '2fa_verify', parameters: { type: 'object', properties: { code: { type: 'string' } } }, code: 'GEMINI_TOOL_NAME_INVALID' },
});
