import { IsInt, IsISO8601, IsString, Min } from 'class-validator';
import { AgentTool } from '../agent-tool/agent-tool';
import { LlmAgent } from '../agents/llm-agent';
import { functionTool } from '../function-tool/function-tool';
import type { JsonSchema } from '../model/json-schema';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { ScriptedModel } from '../testing/scripted-model';
import { collect } from './__fixtures__/test-tools';
import { Runner } from './runner';

const WEATHER: JsonSchema = {
  type: 'object',
  title: 'Weather',
  properties: { city: { type: 'string' }, celsius: { type: 'number' }, sky: { enum: ['clear', 'cloudy', 'rain'] } },
  required: ['city', 'celsius', 'sky'],
  additionalProperties: false,
};

interface Weather {
  city: string;
  celsius: number;
  sky: 'clear' | 'cloudy' | 'rain';
}

const lookup = functionTool<{ city: string }>({
  name: 'lookup',
  description: 'Looks the weather up.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => ({ city, celsius: 21, sky: 'clear' }),
});

class Meeting {
  @IsString()
  title!: string;

  // class-validator's ISO check is stricter than JSON Schema's date-time format: it must also run.
  @IsISO8601({ strict: true })
  startsAt!: string;

  @IsInt()
  @Min(1)
  minutes!: number;
}

describe('LlmAgent outputSchema (structured output)', () => {
  it('asks for the schema, runs tools during the loop, and ends with the parsed answer as event.output and in outputKey', async () => {
    const sessionService = new InMemorySessionService();
    const model = new ScriptedModel([{ calls: [{ name: 'lookup', args: { city: 'Paris' } }] }, '{"city":"Paris","celsius":21,"sky":"clear"}']);
    const agent = new LlmAgent<Weather>({ name: 'forecaster', model, tools: [lookup], outputSchema: WEATHER, outputKey: 'weather' });
    const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'Weather in Paris?');

    expect(model.requests.map((request) => request.responseSchema)).toEqual([
      { name: 'Weather', schema: WEATHER },
      { name: 'Weather', schema: WEATHER },
    ]);
    expect(model.requests[0].tools.map((tool) => tool.name)).toEqual(['lookup']);
    const final = events[events.length - 1];
    expect(final.isFinalResponse()).toBe(true);
    const output: Weather | undefined = agent.outputOf(final);
    expect(output).toEqual({ city: 'Paris', celsius: 21, sky: 'clear' });
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.state.weather).toEqual({ city: 'Paris', celsius: 21, sky: 'clear' });
    // Stored sessions keep the parsed answer on the event.
    expect(session!.events[session!.events.length - 1].output).toEqual({ city: 'Paris', celsius: 21, sky: 'clear' });
  });

  it('feeds an invalid answer back with every problem at its path, then accepts the corrected one', async () => {
    const model = new ScriptedModel(['{"city":"Paris","celsius":"warm","sky":"sunny"}', '```json\n{"city":"Paris","celsius":21,"sky":"clear"}\n```']);
    const agent = new LlmAgent({ name: 'forecaster', model, outputSchema: WEATHER, outputKey: 'weather' });
    const events = await collect(new Runner({ appName: 'app', agent }), 'Weather in Paris?');

    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', undefined]);
    expect(events[0].errorMessage).toBe(
      'The answer of agent "forecaster" does not match its output schema: celsius: got "warm", expected number; ' +
        'sky: got "sunny", expected one of "clear" | "cloudy" | "rain". Reply again with only a JSON value that matches the schema.',
    );
    expect(events[0].actions.stateDelta).toEqual({});
    // The second request carries the rejected answer and, after it, what was wrong with it.
    const contents = model.requests[1].contents;
    expect(contents.slice(-2)).toEqual([
      { role: 'model', parts: [{ text: '{"city":"Paris","celsius":"warm","sky":"sunny"}' }] },
      { role: 'user', parts: [{ text: events[0].errorMessage }] },
    ]);
    expect(events[1].output).toEqual({ city: 'Paris', celsius: 21, sky: 'clear' });
    expect(events[1].actions.stateDelta).toEqual({ weather: { city: 'Paris', celsius: 21, sky: 'clear' } });
  });

  it('ends with OUTPUT_INVALID once the retries are used up', async () => {
    const model = new ScriptedModel(['not json', '{"city":"Paris"}', '{}']);
    const agent = new LlmAgent({ name: 'forecaster', model, outputSchema: WEATHER, outputRetries: 1 });
    const events = await collect(new Runner({ appName: 'app', agent }), 'Weather?');

    expect(model.callCount).toBe(2);
    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', 'OUTPUT_INVALID']);
    expect(events[0].errorMessage).toContain('answer: got text that is not JSON');
    expect(events[1].errorMessage).toContain('celsius: missing, expected a value (required); sky: missing, expected a value (required)');
    expect(events[1].output).toBeUndefined();
  });

  it('checks a DTO answer with class-validator too, and types it as the class', async () => {
    const model = new ScriptedModel(['{"title":"Sync","startsAt":"tomorrow","minutes":30}', '{"title":"Sync","startsAt":"2026-11-25T09:00:00Z","minutes":30}']);
    const agent = new LlmAgent({ name: 'planner', model, outputSchema: Meeting });
    const events = await collect(new Runner({ appName: 'app', agent }), 'Plan a sync');

    expect(model.requests[0].responseSchema).toMatchObject({ name: 'Meeting', schema: { type: 'object', required: ['title', 'startsAt', 'minutes'] } });
    expect(events[0].errorCode).toBe('OUTPUT_INVALID');
    expect(events[0].errorMessage).toContain('startsAt');
    const meeting: Meeting | undefined = agent.outputOf(events[1]);
    expect(meeting).toEqual({ title: 'Sync', startsAt: '2026-11-25T09:00:00Z', minutes: 30 });
  });

  it('validates a streamed answer once, on the complete response', async () => {
    const model = new ScriptedModel(['{"city":"Oslo","celsius":-3,"sky":"cloudy"}'], { streamChunkChars: 10 });
    const agent = new LlmAgent({ name: 'forecaster', model, outputSchema: WEATHER });
    const events = await collect(new Runner({ appName: 'app', agent }), 'Oslo?', { streaming: true });

    const partials = events.filter((event) => event.partial);
    expect(partials.length).toBeGreaterThan(1);
    expect(partials.every((event) => event.output === undefined && event.errorCode === undefined)).toBe(true);
    expect(events[events.length - 1].output).toEqual({ city: 'Oslo', celsius: -3, sky: 'cloudy' });
  });

  it('refuses an output schema that is not an object schema when the agent is built', () => {
    const model = new ScriptedModel([]);
    expect(() => new LlmAgent({ name: 'a', model, outputSchema: { type: 'string' } })).toThrow(expect.objectContaining({ code: 'AGENT_CONFIG_INVALID' }));
    expect(() => new LlmAgent({ name: 'a', model, outputSchema: { type: 'object', properties: 3 } })).toThrow(/outputSchema is invalid/);
  });

  it('leaves agents without an outputSchema as they were', async () => {
    const model = new ScriptedModel(['{"not":"checked"}']);
    const agent = new LlmAgent({ name: 'plain', model, outputKey: 'answer' });
    const events = await collect(new Runner({ appName: 'app', agent }), 'hi');
    expect(model.requests[0].responseSchema).toBeUndefined();
    expect(events[0].output).toBeUndefined();
    expect(events[0].actions.stateDelta).toEqual({ answer: '{"not":"checked"}' });
  });
});

describe('LlmAgent outputSchema: repairs', () => {
  it('gives the answer the same named repairs as tool arguments (null for an optional property, a number as a string)', async () => {
    const schema: JsonSchema = { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'number' }, note: { type: 'string' } }, required: ['city', 'celsius'] };
    const model = new ScriptedModel(['{"city":"Rome","celsius":"24.5","note":null}']);
    const agent = new LlmAgent({ name: 'forecaster', model, outputSchema: schema });
    const events = await collect(new Runner({ appName: 'app', agent }), 'Rome?');
    expect(events.map((event) => event.errorCode)).toEqual([undefined]);
    expect(events[0].output).toEqual({ city: 'Rome', celsius: 24.5 });
  });
});

describe('LlmAgent outputSchema: numbers JSON cannot carry', () => {
  const TOTALS: JsonSchema = { type: 'object', properties: { total: { type: 'number' }, list: { type: 'array', items: { type: 'number' } } } };

  it.each([
    ['{"total":1e999}', 'total: got Infinity'],
    ['{"total":"-1e999"}', 'total: got -Infinity'],
    ['{"list":[1,1E400]}', 'list[1]: got Infinity'],
  ])('refuse the answer %s as OUTPUT_INVALID, nothing stored, and the model answers again', async (answer, problem) => {
    const model = new ScriptedModel([answer, '{"total":2}']);
    const sessionService = new InMemorySessionService();
    const agent = new LlmAgent({ name: 'a', model, outputSchema: TOTALS, outputKey: 'result' });
    const events = await collect(new Runner({ appName: 'app', agent, sessionService }), 'Total?');

    expect(events.map((event) => event.errorCode)).toEqual(['OUTPUT_INVALID', undefined]);
    expect(events[0].errorMessage).toContain(`${problem}, expected a finite number`);
    expect(events[0].output).toBeUndefined();
    expect(events[0].actions.stateDelta).toEqual({});
    const session = await sessionService.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    expect(session!.state).toEqual({ result: { total: 2 } });
    expect(session!.events.at(-1)!.output).toEqual({ total: 2 });
  });
});

describe('LlmAgent outputSchema behind an AgentTool', () => {
  it('gives the caller the validated object, after the inner agent retried an invalid answer', async () => {
    const inner = new ScriptedModel(['{"city":"Paris"}', '{"city":"Paris","celsius":21,"sky":"clear"}']);
    const forecaster = new LlmAgent({ name: 'forecaster', description: 'Weather as data.', model: inner, outputSchema: WEATHER });
    const outer = new ScriptedModel([{ calls: [{ name: 'forecaster', args: { request: 'Paris' } }] }, 'It is 21°C in Paris.']);
    const events = await collect(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'main', model: outer, tools: [new AgentTool({ agent: forecaster })] }) }), 'Weather?');

    expect(inner.callCount).toBe(2);
    expect(events[1].functionResponses()[0].response).toEqual({ city: 'Paris', celsius: 21, sky: 'clear' });
  });

  it('fails the call with OUTPUT_INVALID when the inner agent used up its retries', async () => {
    const forecaster = new LlmAgent({ name: 'forecaster', description: 'Weather as data.', model: new ScriptedModel(['nope']), outputSchema: WEATHER, outputRetries: 0 });
    const outer = new ScriptedModel([{ calls: [{ name: 'forecaster', args: { request: 'Paris' } }] }, 'Sorry.']);
    const events = await collect(new Runner({ appName: 'app', agent: new LlmAgent({ name: 'main', model: outer, tools: [new AgentTool({ agent: forecaster })] }) }), 'Weather?');
    expect(events[1].functionResponses()[0].response.error).toMatchObject({ code: 'OUTPUT_INVALID' });
  });
});
