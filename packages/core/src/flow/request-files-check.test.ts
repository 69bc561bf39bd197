import { LlmAgent } from '../agents/llm-agent';
import type { BeforeModelCallback } from '../agents/callbacks';
import { Event } from '../events/event';
import type { Content, Part } from '../model/content';
import type { JsonSchema } from '../model/json-schema';
import type { LlmRequest } from '../model/llm-request';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { SAMPLE_FILES } from '../testing/conformance/file-returning-tool';
import { ScriptedModel } from '../testing/scripted-model';
import { BaseTool } from '../tools/base-tool';
import { REQUEST_ONLY_TOOL } from '../tools/request-only-tool';

// A JPEG's first bytes: what a photo labelled image/png holds.
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex').toString('base64');
const withPng: Content = { role: 'user', parts: [{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: SAMPLE_FILES.png, displayName: 'chart.png' } }] };

/** A request-only tool whose hook appends a note: the callbacks then get the hooks' copy of the request, which they edit in place. */
class Note extends BaseTool {
  readonly [REQUEST_ONLY_TOOL] = true;
  readonly name = 'note';
  readonly description = 'Adds a note.';
  readonly parameters: JsonSchema = { type: 'object', properties: {} };
  run(): Record<string, unknown> {
    return {};
  }
  override processRequest(_context: unknown, request: LlmRequest): void {
    request.contents.push({ role: 'user', parts: [{ text: 'a note' }] });
  }
}

async function run(beforeModel: BeforeModelCallback, options: { message?: Content; tools?: BaseTool[]; streaming?: boolean } = {}) {
  const model = new ScriptedModel(['seen']);
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model, tools: options.tools ?? [], callbacks: { beforeModel } }) });
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: options.message ?? { role: 'user', parts: [{ text: 'hi' }] }, streaming: options.streaming })) events.push(event);
  const session = await sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  return { events, model, stored: session!.events };
}

const added = (inlineData: unknown): BeforeModelCallback => ({ request }) => void request.contents.push({ role: 'user', parts: [{ inlineData } as Part] });

describe("a beforeModel callback's request: its files are checked before the model is called", () => {
  const refused: Array<[string, BeforeModelCallback, string]> = [
    ['inline data without a mimeType', added({ data: 'AAAA' }), 'content 1, part 0 has inlineData that is not { mimeType: "type/subtype"'],
    ['a numeric mimeType', added({ mimeType: 5, data: 'AAAA' }), 'content 1, part 0 has inlineData that is not'],
    ['no data', added({ mimeType: 'text/plain' }), 'content 1, part 0 has inlineData that is not'],
    ['a data URL as data', added({ mimeType: 'image/png', data: `data:image/png;base64,${SAMPLE_FILES.png}` }), 'content 1, part 0 has inlineData that is not'],
    ['a media type with a comma', added({ mimeType: 'text/plain,evil', data: 'AAAA' }), 'content 1, part 0 has inlineData that is not'],
    ['a JPEG labelled image/png', added({ mimeType: 'image/png', data: JPEG }), 'content 1, part 0 has inlineData declared image/png whose bytes are a JPEG image (image/jpeg)'],
    ['another member', added({ mimeType: 'image/png', data: SAMPLE_FILES.png, fileUri: 'gs://b/x' }), 'content 1, part 0 has inlineData that is not'],
    ['contents that are no array', ({ request }) => void ((request as { contents: unknown }).contents = 'hi'), 'its contents are string, not an array'],
    ['a part that is null', ({ request }) => void request.contents[0].parts.push(null as unknown as Part), 'content 0, part 1 is null, not an object'],
    [
      "a function response's file",
      ({ request }) => void request.contents.push({ role: 'user', parts: [{ functionResponse: { id: 'c', name: 't', response: {}, parts: [{ inlineData: { mimeType: 'application/pdf', data: SAMPLE_FILES.png } }] } }] }),
      'content 1, part 0 has a functionResponse whose file 0 has inlineData declared application/pdf whose bytes are a PNG image (image/png)',
    ],
  ];

  it.each(refused)('%s: INVALID_MODEL_REQUEST naming the callback and the part; the model is not called', async (_, beforeModel, reason) => {
    for (const streaming of [false, true]) {
      const { events, model, stored } = await run(beforeModel, { streaming });
      expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_REQUEST']);
      expect(events[0].errorMessage).toContain('The request a beforeModel callback left for model "scripted-model" is not valid: ');
      expect(events[0].errorMessage).toContain(reason);
      expect(model.requests).toHaveLength(0);
      expect(stored.map((e) => e.errorCode)).toEqual([undefined, 'INVALID_MODEL_REQUEST']);
    }
  });

  it("an edit in place of the session's own file is checked, with a processRequest hook's copy too; files left as they were, or added as they should be, reach the model", async () => {
    const retyped: BeforeModelCallback = ({ request }) => void (request.contents[0].parts[1].inlineData!.mimeType = 'image/gif');
    const redact: BeforeModelCallback = ({ request }) => {
      request.contents[0].parts[0].text = '[redacted]';
      request.contents.push({ role: 'user', parts: [{ inlineData: { mimeType: 'application/pdf', data: SAMPLE_FILES.pdf } }] });
    };
    for (const tools of [[], [new Note()]]) {
      const refused = await run(retyped, { message: withPng, tools });
      expect(refused.events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_REQUEST']);
      expect(refused.events[0].errorMessage).toContain('content 0, part 1 has inlineData declared image/gif whose bytes are a PNG image (image/png)');
      expect(refused.model.requests).toHaveLength(0);
      const { events, model } = await run(redact, { message: withPng, tools });
      expect(events.map((e) => e.errorCode)).toEqual([undefined]);
      expect(model.requests[0].contents.flatMap((c) => c.parts).filter((p) => p.inlineData).map((p) => p.inlineData!.mimeType)).toEqual(['image/png', 'application/pdf']);
    }
  });
});

describe('a file the request held is judged by itself, not by where it is', () => {
  /** A session holding an old model turn with a JPEG labelled image/png (stored before the response check), then a run with `beforeModel`. */
  async function oldSession(beforeModel: BeforeModelCallback) {
    const model = new ScriptedModel(['seen']);
    const sessionService = new InMemorySessionService();
    const session = await sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
    await sessionService.appendEvent(session, Event.create({ invocationId: 'old', author: 'user', content: { role: 'user', parts: [{ text: 'draw' }] } }));
    await sessionService.appendEvent(session, Event.create({ invocationId: 'old', author: 'bot', content: { role: 'model', parts: [{ text: 'Here:' }, { inlineData: { mimeType: 'image/png', data: JPEG } }] } }));
    const runner = new Runner({ appName: 'app', sessionService, agent: new LlmAgent({ name: 'bot', model, callbacks: { beforeModel } }) });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: withPng })) events.push(event);
    return { events, model };
  }

  it("a callback that drops the oldest content: the session's files, moved, are not checked again; the model gets them", async () => {
    const { events, model } = await oldSession(({ request }) => void request.contents.shift());
    expect(events.map((e) => e.errorCode)).toEqual([undefined]);
    expect(model.requests[0].contents.flatMap((c) => c.parts).filter((p) => p.inlineData).map((p) => p.inlineData!.data)).toEqual([JPEG, SAMPLE_FILES.png]);
  });

  it('a file moved and edited is checked', async () => {
    const { events } = await oldSession(({ request }) => {
      const [first] = request.contents.splice(0, 1);
      request.contents.push({ role: 'user', parts: [...first.parts, { inlineData: { mimeType: 'image/png', data: SAMPLE_FILES.png, displayName: 'other name' } }, { inlineData: { mimeType: 'image/gif', data: SAMPLE_FILES.png } }] });
    });
    expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_REQUEST']);
    expect(events[0].errorMessage).toContain('content 2, part 2 has inlineData declared image/gif whose bytes are a PNG image (image/png)');
  });
});

/** A tool whose hook appends a file: the hook's file is checked like a callback's, and said to be the hook's. */
class FileHook extends BaseTool {
  readonly [REQUEST_ONLY_TOOL] = true;
  readonly name = 'attach';
  readonly description = 'Attaches a file.';
  readonly parameters: JsonSchema = { type: 'object', properties: {} };
  constructor(private readonly file: unknown) {
    super();
  }
  run(): Record<string, unknown> {
    return {};
  }
  override processRequest(_context: unknown, request: LlmRequest): void {
    request.contents.push({ role: 'user', parts: [{ inlineData: this.file } as Part] });
  }
}

describe("a processRequest hook's files are checked, with or without callbacks", () => {
  async function hooked(file: unknown, callbacks: { beforeModel?: BeforeModelCallback } = {}) {
    const model = new ScriptedModel(['seen']);
    const runner = new Runner({ appName: 'app', sessionService: new InMemorySessionService(), agent: new LlmAgent({ name: 'bot', model, tools: [new FileHook(file)], callbacks }) });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: withPng })) events.push(event);
    return { events, model };
  }

  it('a bad file a hook put in: INVALID_MODEL_REQUEST naming the hook; the model is not called', async () => {
    for (const callbacks of [{}, { beforeModel: () => undefined }]) {
      const { events, model } = await hooked({ mimeType: 'image/png', data: `data:image/png;base64,${JPEG}` }, callbacks);
      expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_REQUEST']);
      expect(events[0].errorMessage).toContain('The request a processRequest hook left for model "scripted-model" is not valid: content 1, part 0 has inlineData that is not');
      expect(model.requests).toHaveLength(0);
    }
  });

  it('a file a hook put in whose getter throws is the hook\'s, with or without callbacks', async () => {
    for (const callbacks of [{}, { beforeModel: () => undefined }]) {
      const { events, model } = await hooked({ mimeType: 'image/jpeg', get data(): string { throw new Error('secret'); } }, callbacks);
      expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_REQUEST']);
      expect(events[0].errorMessage).toContain('The request a processRequest hook left for model "scripted-model" is not valid: reading its contents threw an error');
      expect(model.requests).toHaveLength(0);
    }
  });

  it("a good file a hook put in reaches the model; a callback's bad file beside it is the callback's", async () => {
    const good = await hooked({ mimeType: 'application/pdf', data: SAMPLE_FILES.pdf });
    expect(good.events.map((e) => e.errorCode)).toEqual([undefined]);
    expect(good.model.requests[0].contents.flatMap((c) => c.parts).filter((p) => p.inlineData).map((p) => p.inlineData!.mimeType)).toEqual(['image/png', 'application/pdf']);
    const bad = await hooked({ mimeType: 'application/pdf', data: SAMPLE_FILES.pdf }, { beforeModel: added({ mimeType: 'image/png', data: JPEG }) });
    expect(bad.events[0].errorMessage).toContain('The request a beforeModel callback left');
  });
});

describe('a part with both text and inlineData is refused as in a user message', () => {
  it("a callback's part: INVALID_MODEL_REQUEST with the user message's words", async () => {
    const { events, model } = await run(({ request }) => void request.contents.push({ role: 'user', parts: [{ text: 'caption', inlineData: { mimeType: 'image/png', data: SAMPLE_FILES.png } }] }));
    expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_REQUEST']);
    expect(events[0].errorMessage).toContain('content 1, part 0 has more than one of text, functionResponse and inlineData; send each in a part of its own');
    expect(model.requests).toHaveLength(0);
  });
});

describe('the request the model gets holds the files as they were checked', () => {
  it('a getter on a file that reads well once, then a JPEG: the model gets what was checked', async () => {
    const { events, model } = await run(({ request }) => {
      let reads = 0;
      const file = { mimeType: 'image/jpeg', get data() { return ++reads === 1 ? JPEG : `data:image/jpeg;base64,${JPEG}`; } };
      request.contents.push({ role: 'user', parts: [{ inlineData: file } as Part] });
    });
    expect(events.map((e) => e.errorCode)).toEqual([undefined]);
    expect(model.requests[0].contents[1].parts[0]).toEqual({ inlineData: { mimeType: 'image/jpeg', data: JPEG } });
    expect(Object.getOwnPropertyDescriptor(model.requests[0].contents[1].parts[0].inlineData, 'data')).toHaveProperty('value', JPEG);
  });

  it("a getter put on the session's own file (its first read the file it was): the model gets the file it was", async () => {
    const { events, model } = await run(({ request }) => {
      const file = request.contents[0].parts[1].inlineData!;
      let reads = 0;
      Object.defineProperty(file, 'data', { enumerable: true, get: () => (++reads === 1 ? SAMPLE_FILES.png : JPEG) });
    }, { message: withPng });
    expect(events.map((e) => e.errorCode)).toEqual([undefined]);
    expect(model.requests[0].contents[0].parts[1].inlineData).toEqual({ mimeType: 'image/png', data: SAMPLE_FILES.png, displayName: 'chart.png' });
  });

  it("a Proxy file, and one the callback changes after it returned: the model gets what was checked; the callback's objects are not written", async () => {
    let kept: { mimeType: string; data: string } | undefined;
    let keptParts: Part[] | undefined;
    const { events, model } = await run(({ request }) => {
      let reads = 0;
      const proxy = new Proxy({ mimeType: 'image/jpeg', data: JPEG }, { get: (target, key) => (key === 'mimeType' && ++reads > 1 ? 'image/png' : target[key as 'data']) });
      kept = { mimeType: 'image/jpeg', data: JPEG };
      keptParts = [{ inlineData: proxy }, { inlineData: kept }];
      request.contents.push({ role: 'user', parts: keptParts });
      // After the check, before the adapter reads the request: three microtasks later.
      queueMicrotask(() => queueMicrotask(() => queueMicrotask(() => void (kept!.mimeType = 'image/png'))));
    });
    expect(events.map((e) => e.errorCode)).toEqual([undefined]);
    expect(model.requests[0].contents[1].parts).toEqual([{ inlineData: { mimeType: 'image/jpeg', data: JPEG } }, { inlineData: { mimeType: 'image/jpeg', data: JPEG } }]);
    expect(keptParts![1].inlineData).toBe(kept);
  });

  it("a function response's files are sent as checked too, its other members kept", async () => {
    let reads = 0;
    const file = { mimeType: 'application/pdf', get data() { return ++reads === 1 ? SAMPLE_FILES.pdf : 'not base64!'; } };
    const { events, model } = await run(({ request }) => void request.contents.push({ role: 'user', parts: [{ functionResponse: { id: 'c', name: 't', response: { ok: true }, parts: [{ inlineData: file }] } }] }));
    expect(events.map((e) => e.errorCode)).toEqual([undefined]);
    expect(model.requests[0].contents[1].parts[0]).toEqual({ functionResponse: { id: 'c', name: 't', response: { ok: true }, parts: [{ inlineData: { mimeType: 'application/pdf', data: SAMPLE_FILES.pdf } }] } });
  });
});

describe('what throws when the request is read', () => {
  it('is said in fixed words: what it threw (long, with terminal escapes) is not repeated', async () => {
    const thrown = `\u001b[2J\u001b[31mFAKE LOG LINE\nlevel=info ${'y'.repeat(100_000)}`;
    const { events } = await run(({ request }) => void request.contents.push({ role: 'user', parts: [{ get inlineData(): never { throw new Error(thrown); } } as unknown as Part] }));
    expect(events.map((e) => e.errorCode)).toEqual(['INVALID_MODEL_REQUEST']);
    expect(events[0].errorMessage).toContain('a beforeModel callback left for model "scripted-model" is not valid: reading its contents threw an error (a getter or a Proxy); leave plain data. The model was not called.');
    expect(events[0].errorMessage).not.toContain('FAKE');
    expect(events[0].errorMessage!.length).toBeLessThan(300);
  });
});
