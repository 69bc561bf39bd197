import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { LlmAgent } from '../agents/llm-agent';
import type { AuthConfig } from '../auth/auth-config';
import { InMemoryCredentialService } from '../auth/in-memory-credential-service';
import { credentialRequests } from '../confirmation/credential-requests';
import { credentialResponse } from '../confirmation/credential-response';
import { ToolsmithError } from '../errors/toolsmith-error';
import { functionTool } from '../function-tool/function-tool';
import type { Content } from '../model/content';
import type { LlmRequest } from '../model/llm-request';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { collect } from '../testing/collect';
import { ScriptedModel } from '../testing/scripted-model';
import type { ToolContext } from '../tools/tool-context';
import { Runner } from './runner';

const SECRET = 'SECRETVALUE-9f8e7d6c5b4a+/';
const noParams = { type: 'object', properties: {}, additionalProperties: false } as const;
const apiKey: AuthConfig = { scheme: 'apiKey', name: 'wkey' };

/** A runner whose one tool, `weather`, runs `execute`; what the model, the session and the spans saw. */
function setup(execute: (args: Record<string, unknown>, ctx: ToolContext) => unknown, auth: AuthConfig | null = apiKey) {
  const requests: string[] = [];
  const model = new ScriptedModel((request: LlmRequest) => {
    requests.push(JSON.stringify(request.contents));
    return request.contents.at(-1)?.parts[0]?.functionResponse?.name === 'weather' ? 'done' : { calls: [{ id: 'c1', name: 'weather', args: {} }] };
  });
  const sessionService = new InMemorySessionService();
  const credentialService = new InMemoryCredentialService();
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tool = functionTool({ name: 'weather', description: 'Weather.', parameters: noParams, ...(auth ? { auth } : {}), execute });
  const runner = new Runner({ appName: 'wx', agent: new LlmAgent({ name: 'a', model, tools: [tool] }), sessionService, credentialService, tracing: { tracerProvider, recordContent: true } });
  const run = (newMessage: Content) => collect(runner.run({ userId: 'u', sessionId: 's', newMessage }));
  const seen = async () => ({
    model: requests.join('\n'),
    session: JSON.stringify(await sessionService.getSession({ appName: 'wx', userId: 'u', sessionId: 's' })),
    spans: JSON.stringify(exporter.getFinishedSpans().map((span) => ({ attributes: span.attributes, status: span.status, events: span.events }))),
  });
  return { run, seen, credentialService };
}

/** The call's error as the model got it, after the user typed in `SECRET` as the API key. */
async function errorAfterAnswer(s: ReturnType<typeof setup>): Promise<{ error: { code: string; message: string; details?: unknown } }> {
  const [request] = (await s.run({ role: 'user', parts: [{ text: 'hi' }] })).flatMap((event) => credentialRequests(event));
  const events = await s.run(credentialResponse(request, { credential: { apiKey: SECRET } }));
  return events[0].functionResponses()[0].response as never;
}

describe("a tool's error that quotes the credential the runner handed it", () => {
  it.each<[string, (key: string) => string]>([
    ['as it is', (key) => `the weather API refused key ${key} (401)`],
    ['URL-encoded', (key) => `GET /forecast?key=${encodeURIComponent(key)} answered 401`],
    ['in base64', (key) => `authorization: Basic ${Buffer.from(`user:${key}`).toString('base64')} was refused`],
  ])('is redacted (%s) before the model, the session or a span sees it', async (_label, text) => {
    const s = setup((_args, ctx) => {
      throw new Error(text(ctx.credential!.apiKey!));
    });
    const response = await errorAfterAnswer(s);
    expect(response.error.code).toBe('TOOL_EXECUTION_FAILED');
    expect(response.error.message).toContain('[redacted]');
    const seen = await s.seen();
    for (const where of [seen.model, seen.session, seen.spans]) {
      expect(where).not.toContain(SECRET);
      expect(where).not.toContain(encodeURIComponent(SECRET));
    }
    expect(seen.model).toContain('[redacted]');
  });

  it("a Toolsmith error the tool throws loses it from its message and details; one from ctx.getAuthResponse's credential too", async () => {
    const declared = setup((_args, ctx) => {
      throw new ToolsmithError('WEATHER_REFUSED', `key ${ctx.credential!.apiKey} refused`, { details: { key: ctx.credential!.apiKey, [`k-${ctx.credential!.apiKey}`]: 1 } });
    });
    const response = await errorAfterAnswer(declared);
    expect(response.error).toEqual({ code: 'WEATHER_REFUSED', message: 'key [redacted] refused', details: { key: '[redacted]', 'k-[redacted]': 1 } });
    expect(JSON.stringify(await declared.seen())).not.toContain(SECRET);

    const asked = setup(async (_args, ctx) => {
      const credential = await ctx.getAuthResponse(apiKey);
      if (!credential) return ctx.requestCredential(apiKey);
      throw new Error(`refused ${credential.apiKey}`);
    }, null);
    expect((await errorAfterAnswer(asked)).error.message).toContain('refused [redacted]');
    expect(JSON.stringify(await asked.seen())).not.toContain(SECRET);
  });

  it.each<[string, (key: string) => string]>([
    ['as it is', (key) => `REFUSED_${key}`],
    ['in base64url', (key) => `REFUSED.${Buffer.from(key).toString('base64url')}`],
  ])("a Toolsmith error whose code quotes it (%s) is the tool's failure, by its message", async (_label, code) => {
    const key = 'Zq7Wm2Pk9Lx4Vb8N';
    const s = setup((_args, ctx) => {
      throw new ToolsmithError(code(ctx.credential!.apiKey!), `refused ${ctx.credential!.apiKey}`);
    });
    const [request] = (await s.run({ role: 'user', parts: [{ text: 'hi' }] })).flatMap((event) => credentialRequests(event));
    const events = await s.run(credentialResponse(request, { credential: { apiKey: key } }));
    expect(events[0].functionResponses()[0].response).toEqual({ error: { code: 'TOOL_EXECUTION_FAILED', message: 'The tool failed: refused [redacted]' } });
    expect(events[0].errorCode).toBeUndefined();
    const seen = await s.seen();
    for (const where of [seen.model, seen.session, seen.spans]) {
      expect(where).not.toContain(key);
      expect(where).not.toContain(Buffer.from(key).toString('base64url'));
    }
    expect(seen.spans).toContain('TOOL_EXECUTION_FAILED');
  });

  it('a call that got no credential keeps its message as it is', async () => {
    const s = setup(() => {
      throw new Error(`the weather API refused key ${SECRET} (401)`);
    }, null);
    const events = await s.run({ role: 'user', parts: [{ text: 'hi' }] });
    expect((events[1].functionResponses()[0].response as { error: { message: string } }).error.message).toContain(SECRET);
  });
});
