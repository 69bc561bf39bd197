import { type Event, type FunctionResponse, LlmAgent, Runner } from '@toolsmith/core';
import { ScriptedModel } from '@toolsmith/core/testing';
import { McpToolset } from './mcp-toolset';
import { sourceProcessArgs } from './__fixtures__/source-process';

// A Toolsmith agent uses, through McpToolset, tools that another Toolsmith process serves with serveMcp.
describe('round trip: an agent uses tools served by another Toolsmith process', () => {
  it('declares, validates, calls and answers through MCP', async () => {
    const toolset = new McpToolset({
      transport: { command: process.execPath, args: sourceProcessArgs('serve-stdio-fixture.ts'), stderr: 'ignore' },
      toolFilter: ['wx_forecast', 'get_weather', 'count_visits'],
      prefix: 'remote_',
      // One start of the server (a child start is slow on a loaded machine): `auto` would start it once more to ask its era.
      protocol: '2025-11-25',
    });
    const model = new ScriptedModel([
      {
        calls: [
          { id: 'c1', name: 'remote_wx_forecast', args: { city: 'Paris', days: 5 } },
          { id: 'c2', name: 'remote_get_weather', args: '{"city": 42}' },
          { id: 'c3', name: 'remote_get_weather', args: { city: 'Atlantis' } },
        ],
      },
      { calls: [{ id: 'c4', name: 'remote_count_visits', args: {} }] },
      'Mild in Paris for five days.',
    ]);
    // What developers read of the failures (the errors, with their tool's name here).
    const failures: string[] = [];
    const failureDetails: unknown[] = [];
    const runner = new Runner({
      appName: 'round-trip',
      agent: new LlmAgent({ name: 'assistant', model, tools: [toolset] }),
      plugins: [{ name: 'seen', onToolError: ({ error }) => void (failures.push(error.message), failureDetails.push(error.details)) }],
    });

    const events: Event[] = [];
    try {
      for await (const event of runner.run({
        userId: 'u1',
        sessionId: 's1',
        newMessage: { role: 'user', parts: [{ text: 'Weather in Paris this week?' }] },
      })) {
        events.push(event);
      }
    } finally {
      await runner.close();
    }

    // The model saw the served tools under the prefix, with the served (canonical) schema.
    const declared = model.requests[0].tools;
    expect(declared.map((tool) => tool.name).sort()).toEqual(['remote_count_visits', 'remote_get_weather', 'remote_wx_forecast']);
    expect(declared.find((tool) => tool.name === 'remote_wx_forecast')!.parameters).toMatchObject({
      properties: { city: { type: 'string', description: 'City name' } },
      required: ['city'],
    });

    const responses = new Map<string, FunctionResponse>(events.flatMap((event) => event.functionResponses()).map((r) => [r.id, r]));
    expect(responses.get('c1')!.response).toMatchObject({ forecast: '5-day forecast for Paris from stdio-stub: mild' });
    // Rejected on this side by the served schema, before anything was sent.
    expect(responses.get('c2')).toMatchObject({ isError: true, response: { error: { code: 'INVALID_ARGUMENTS' } } });
    // Failed on the serving side; its error code travels along.
    expect(responses.get('c3')).toMatchObject({
      isError: true,
      response: { error: { code: 'MCP_TOOL_ERROR', details: { remote: { code: 'TOOL_EXECUTION_FAILED' } } } },
    });
    // The server's text already says the tool failed: McpToolset does not say it again, and the model reads it
    // without the tool's name, which the call it answers carries; the error names it, for developers.
    expect((responses.get('c3')!.response.error as { message: string }).message).toBe('The tool failed: no weather data for Atlantis');
    expect(failures.at(-1)).toBe('Tool "remote_get_weather" failed: no weather data for Atlantis');
    // The server's message is the text the response's message states: the model reads it once, the error keeps it.
    expect(responses.get('c3')!.response.error).toEqual({ code: 'MCP_TOOL_ERROR', message: 'The tool failed: no weather data for Atlantis', details: { remote: { code: 'TOOL_EXECUTION_FAILED' } } });
    expect(failureDetails.at(-1)).toEqual({ remote: { code: 'TOOL_EXECUTION_FAILED', message: 'The tool failed: no weather data for Atlantis' } });
    // The serving side keeps state for the MCP session (the tool counts its calls there).
    expect(responses.get('c4')!.response).toMatchObject({ session: 1 });
    expect(events.at(-1)!.isFinalResponse()).toBe(true);
    expect(events.at(-1)!.text()).toBe('Mild in Paris for five days.');
  });
});
