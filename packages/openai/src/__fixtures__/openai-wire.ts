import { type WireReply, type WireServer, startWireServer } from '@toolsmith/core/testing';
import { OpenAIModel, type OpenAIModelOptions } from '../openai-model';

/** Where each OpenAI API's requests must go. */
const PATHS = { chat: '/v1/chat/completions', responses: '/v1/responses' } as const;

/** What {@link useOpenAIWire} gives a describe block. */
export interface OpenAIWire {
  /** Starts the server; each request must be a POST to the API's path with the test key, then `handler` answers its body. */
  serve(handler: (body: any, index: number) => WireReply | Promise<WireReply>): Promise<WireServer>; // eslint-disable-line @typescript-eslint/no-explicit-any -- handlers read the recorded request body of any endpoint
  /** An OpenAIModel for `gpt-4.1-mini` on the served wire, without retries; `options` override. */
  model(options?: Partial<OpenAIModelOptions>): OpenAIModel;
  /** The server the current test started with `serve`. */
  server(): WireServer;
}

/**
 * A local OpenAI wire for the tests of one describe block (call it there). After each test it fails the test
 * when the handler threw (an `expect` inside it) and closes the server.
 */
export function useOpenAIWire(api: 'chat' | 'responses'): OpenAIWire {
  let current: WireServer | undefined;
  afterEach(async () => {
    // Closed before the check: a failed handler assertion must not leave the server (and jest) running.
    const served = current;
    current = undefined;
    await served?.close();
    expect(served?.handlerErrors ?? []).toEqual([]);
  });
  const server = (): WireServer => {
    if (!current) throw new Error('useOpenAIWire: call serve() first');
    return current;
  };
  return {
    async serve(handler) {
      current = await startWireServer((request, index) => {
        expect(request.method).toBe('POST');
        expect(request.path).toBe(PATHS[api]);
        expect(request.headers.authorization).toBe('Bearer test-key');
        return handler(request.body, index);
      });
      return current;
    },
    model: (options = {}) =>
      new OpenAIModel({ model: 'gpt-4.1-mini', ...(api === 'responses' ? { api } : {}), apiKey: 'test-key', baseURL: `${server().url}/v1`, maxRetries: 0, ...options }),
    server,
  };
}
