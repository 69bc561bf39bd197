import { LlmAgent } from '../agents/llm-agent';
import { functionTool } from '../function-tool/function-tool';
import type { LlmRequest } from '../model/llm-request';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { invokeTool } from '../testing/invoke-tool';
import { ScriptedModel } from '../testing/scripted-model';
import { toolFile, toolResult } from '../tools/tool-file';
import { collect } from './__fixtures__/test-tools';
import { Runner } from './runner';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1');
/** `bytes` bytes of `fill` that start as a PNG file does (its 8-byte signature): a file declared image/png must. */
const pngOf = (bytes: number, fill = 0): Buffer => Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(bytes - 8, fill)]);
const noParameters = { type: 'object', properties: {}, additionalProperties: false } as const;

const tool = (execute: () => unknown, name = 'render') => functionTool({ name, description: 'Renders something.', parameters: noParameters, execute });

describe('files from tools', () => {
  it('a toolFile alone: an empty JSON response and the file as a part (bytes as base64, name kept)', async () => {
    const result = await invokeTool(tool(() => toolFile({ mimeType: 'image/png', data: PNG, name: 'chart.png' })), 'render', {});
    expect(result.isError).toBe(false);
    expect(result.response).toEqual({});
    expect(result.parts).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG.toString('base64'), displayName: 'chart.png' } }]);
  });

  it('toolResult: the JSON (wrapped like any result) and several files, base64 given as is', async () => {
    const result = await invokeTool(
      tool(() => toolResult([1, 2], [toolFile({ mimeType: 'image/png', data: PNG }), toolFile({ mimeType: 'application/pdf', data: PDF.toString('base64'), name: 'r.pdf' })])),
      'render',
      {},
    );
    expect(result.response).toEqual({ result: [1, 2] });
    expect(result.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } },
      { inlineData: { mimeType: 'application/pdf', data: PDF.toString('base64'), displayName: 'r.pdf' } },
    ]);
  });

  it('the result budget counts and cuts the JSON only: a file far over maxResultChars goes whole', async () => {
    const big = pngOf(300_000, 7);
    const result = await invokeTool(tool(() => toolResult({ note: 'x'.repeat(500) }, [toolFile({ mimeType: 'image/png', data: big })])), 'render', {}, { maxResultChars: 100 });
    expect(result.response).toMatchObject({ truncated: true });
    expect(result.parts![0].inlineData.data).toBe(big.toString('base64'));
  });

  it('files over maxToolFileBytes (together) fail the call with TOOL_FILES_TOO_LARGE; nothing of them is sent', async () => {
    const files = [toolFile({ mimeType: 'image/png', data: pngOf(600) }), toolFile({ mimeType: 'image/png', data: pngOf(500) })];
    const result = await invokeTool(tool(() => toolResult({}, files)), 'render', {}, { maxToolFileBytes: 1000 });
    expect(result.isError).toBe(true);
    expect(result.error).toMatchObject({ code: 'TOOL_FILES_TOO_LARGE', details: { bytes: 1100, maxBytes: 1000 } });
    // The message states the sizes: the model reads them once (the error keeps them as details).
    expect(result.response).toEqual({ error: { code: 'TOOL_FILES_TOO_LARGE', message: expect.stringContaining('1100 bytes together, over the limit of 1000 bytes') } });
    expect(result.parts).toBeUndefined();
  });

  it.each([
    ['a media type that is not type/subtype', { mimeType: 'png', data: PNG }, 'has the media type "png"'],
    ['data that is not base64', { mimeType: 'image/png', data: 'data:image/png;base64,iVBO' }, 'is not base64'],
    ['empty data', { mimeType: 'image/png', data: '' }, 'the data of the file is empty'],
  ])('refuses %s with INVALID_TOOL_RESULT', async (_what, init, reason) => {
    const result = await invokeTool(tool(() => toolFile(init)), 'render', {});
    expect(result.error).toMatchObject({ code: 'INVALID_TOOL_RESULT', message: expect.stringContaining(reason) });
  });

  it('refuses a name that is not a string with INVALID_TOOL_RESULT', async () => {
    const result = await invokeTool(tool(() => toolFile({ mimeType: 'image/png', data: PNG, name: 7 as unknown as string })), 'render', {});
    expect(result.error).toMatchObject({ code: 'INVALID_TOOL_RESULT', message: expect.stringContaining('the name of the file is not a string') });
  });

  it("counts a file's name with its bytes against maxToolFileBytes", async () => {
    const result = await invokeTool(tool(() => toolFile({ mimeType: 'image/png', data: pngOf(800), name: 'é'.repeat(250) })), 'render', {}, { maxToolFileBytes: 1000 });
    expect(result.error).toMatchObject({ code: 'TOOL_FILES_TOO_LARGE', details: { bytes: 1300, maxBytes: 1000 } });
  });

  it('refuses a name longer than 255 characters, or with a control character: it is stored and repeated in every later request', async () => {
    for (const name of ['n'.repeat(256), 'two\nlines.txt', 'nul\u0000.png', 'nel\u0085.png', 'x\u2028[SYSTEM].png', 'gpj.\u202eexe', 'a\u061cb.png', 'half\ud83d.png', '😀'.repeat(128)]) {
      const result = await invokeTool(tool(() => toolFile({ mimeType: 'image/png', data: pngOf(16), name })), 'render', {});
      expect(result.error).toMatchObject({ code: 'INVALID_TOOL_RESULT', message: 'Tool "render" returned a file that cannot be sent: the name of the file is not a string of at most 255 characters (UTF-16 code units) with no control character, lone surrogate, line separator or bidirectional control.' });
    }
    expect((await invokeTool(tool(() => toolFile({ mimeType: 'image/png', data: pngOf(16), name: 'n'.repeat(255) })), 'render', {})).isError).toBe(false);
  });

  it.each([null, {}, 'x'])('refuses a toolResult whose files are %p with INVALID_TOOL_RESULT', async (files) => {
    const result = await invokeTool(tool(() => toolResult({ ok: true }, files as never)), 'render', {});
    expect(result.error).toMatchObject({ code: 'INVALID_TOOL_RESULT', message: expect.stringContaining('not an array') });
  });

  describe('a file is read once: what is sent and stored is what was checked', () => {
    /** A file whose `member` answers `first` on its first read and `later` on every read after it. */
    const changing = (member: 'data' | 'mimeType', first: string, later: string) => {
      const file = toolFile({ mimeType: 'image/png', data: PNG });
      let reads = 0;
      Object.defineProperty(file, member, { get: () => (reads++ === 0 ? first : later) });
      return file;
    };

    it('data that grows past maxToolFileBytes after the check is not sent', async () => {
      const result = await invokeTool(tool(() => changing('data', PNG.toString('base64'), 'A'.repeat(4096))), 'render', {}, { maxToolFileBytes: 1000 });
      expect(result.parts).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } }]);
    });

    it('data that stops being base64 after the check is not sent', async () => {
      const result = await invokeTool(tool(() => changing('data', PNG.toString('base64'), 'data:%%% not base64')), 'render', {});
      expect(result.parts![0].inlineData.data).toBe(PNG.toString('base64'));
    });

    it('a media type that changes after the check is not sent', async () => {
      const result = await invokeTool(tool(() => changing('mimeType', 'image/png', 'text/html; <script>')), 'render', {});
      expect(result.parts![0].inlineData.mimeType).toBe('image/png');
    });

    it("a file's replaced toPart is not used: the stored session stays plain JSON", async () => {
      const sessionService = new InMemorySessionService();
      const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'render' }] }, 'Done.']);
      const file = toolFile({ mimeType: 'image/png', data: PNG });
      (file as unknown as { toPart: () => unknown }).toPart = () => ({ inlineData: { mimeType: 'image/png', data: 10n } });
      const runner = new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model, tools: [tool(() => file)] }) });
      await collect(runner, 'Draw it');
      const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
      expect(() => JSON.stringify(session!.events)).not.toThrow();
      expect(session!.events[2].functionResponses()[0].parts).toEqual([{ inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } }]);
    });
  });

  it('refuses a file put inside the JSON (it would reach the model as base64 text) with INVALID_TOOL_RESULT', async () => {
    const result = await invokeTool(tool(() => ({ chart: toolFile({ mimeType: 'image/png', data: PNG }) })), 'render', {});
    expect(result.error).toMatchObject({ code: 'INVALID_TOOL_RESULT', message: expect.stringContaining('the value of "chart" is a file') });
  });

  it('refuses a media type longer than RFC 6838 allows (127 characters a side): it would be repeated in every later request; the error quotes 60 characters', async () => {
    const result = await invokeTool(tool(() => toolFile({ mimeType: `image/${'a'.repeat(128)}`, data: PNG })), 'render', {});
    expect(result.error).toMatchObject({ code: 'INVALID_TOOL_RESULT', message: `Tool "render" returned a file that cannot be sent: the file has the media type "image/${'a'.repeat(52)}…, not "type/subtype" (e.g. "image/png", at most 127 characters each).` });
    expect((await invokeTool(tool(() => toolFile({ mimeType: `image/${'a'.repeat(127)}`, data: PNG })), 'render', {})).isError).toBe(false);
  });

  it("a beforeTool callback's response is JSON only: a toolResult from it is INVALID_TOOL_RESULT saying so", async () => {
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'render' }] }, 'ok']);
    const cached = toolResult({ pages: 1 }, [toolFile({ mimeType: 'image/png', data: PNG })]);
    const agent = new LlmAgent({ name: 'bot', model, tools: [tool(() => ({}))], callbacks: { beforeTool: [() => cached as unknown as Record<string, unknown>] } });
    const events = await collect(new Runner({ appName: 'app', agent }), 'Draw it');
    expect(events[1].functionResponses()[0].response).toMatchObject({
      error: { code: 'INVALID_TOOL_RESULT', message: "The tool returned a result that is not JSON: the result is a file (a tool returns files beside the JSON: toolResult(value, [files]), or a toolFile alone; a callback's response is JSON only)." },
    });
  });

  it('the runner stores the files with the response (JSON round trip) and sends them to the model on the next request', async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'render' }] }, 'A rising line.']);
    const runner = new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model, tools: [tool(() => toolFile({ mimeType: 'image/png', data: PNG, name: 'chart.png' }))] }) });
    await collect(runner, 'Draw it');

    const expected = { id: 'c1', name: 'render', response: {}, parts: [{ inlineData: { mimeType: 'image/png', data: PNG.toString('base64'), displayName: 'chart.png' } }] };
    const sent = (model.requests[1] as LlmRequest).contents.flatMap((c) => c.parts).find((p) => p.functionResponse);
    expect(sent?.functionResponse).toEqual(expected);
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    const stored = JSON.parse(JSON.stringify(session!.events)).flatMap((e: { content?: { parts: object[] } }) => e.content?.parts ?? []);
    expect(stored.find((p: { functionResponse?: object }) => p.functionResponse).functionResponse).toEqual(expected);
  });

  it("the runner's maxToolFileBytes applies to its calls", async () => {
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'render' }] }, 'Too big.']);
    const runner = new Runner({ appName: 'app', maxToolFileBytes: 10, agent: new LlmAgent({ name: 'bot', model, tools: [tool(() => toolFile({ mimeType: 'image/png', data: PNG }))] }) });
    const events = await collect(runner, 'Draw it');
    expect(events[1].functionResponses()[0]).toMatchObject({ isError: true, response: { error: { code: 'TOOL_FILES_TOO_LARGE' } } });
  });

  it('a client message whose function response has malformed parts is refused (INVALID_MESSAGE), nothing run', async () => {
    const model = new ScriptedModel(['never called']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'bot', model, tools: [] }) });
    const newMessage = { role: 'user' as const, parts: [{ functionResponse: { id: 'c1', name: 'render', response: {}, parts: [{ inlineData: { mimeType: 'image/png' } }] } }] };
    const events = [];
    for await (const event of runner.run({ userId: 'u1', sessionId: 's1', newMessage: newMessage as never })) events.push(event);
    expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MESSAGE']);
    expect(model.callCount).toBe(0);
  });

  it('outputSchema checks the JSON value only; an afterTool callback sees and replaces the JSON, and the files stay', async () => {
    const checked = functionTool({
      name: 'render',
      description: 'Renders something.',
      parameters: noParameters,
      responseSchema: { type: 'object', properties: { points: { type: 'number' } }, required: ['points'] },
      execute: () => toolResult({ points: 'many' }, [toolFile({ mimeType: 'image/png', data: PNG })]),
    });
    expect((await invokeTool(checked, 'render', {})).error).toMatchObject({ code: 'TOOL_OUTPUT_INVALID' });

    const seen: unknown[] = [];
    const model = new ScriptedModel([{ calls: [{ id: 'c1', name: 'render' }] }, 'Done.']);
    const agent = new LlmAgent({
      name: 'bot',
      model,
      tools: [tool(() => toolResult({ points: 90 }, [toolFile({ mimeType: 'image/png', data: PNG })]))],
      callbacks: { afterTool: ({ response }) => (seen.push(response), { redacted: true }) },
    });
    const events = await collect(new Runner({ appName: 'app', agent }), 'Draw it');
    expect(seen).toEqual([{ points: 90 }]);
    expect(events[1].functionResponses()[0]).toMatchObject({ response: { redacted: true }, parts: [{ inlineData: { mimeType: 'image/png', data: PNG.toString('base64') } }] });
  });
});
