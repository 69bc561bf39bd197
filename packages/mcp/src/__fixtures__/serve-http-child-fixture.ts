// A Toolsmith process serving over Streamable HTTP (both eras) on PORT (0: a free one); prints `URL <url>` when
// ready and `STARTED` when its `hang` tool's call has begun (the call then never ends): a test kills it mid-call.
// `hang_streaming` first reports progress, so the call's response is an SSE stream the client is reading.
import { BaseTool, type JsonSchema, type ToolContext } from '@toolsmith/core';
import { reportMcpProgress } from '../report-mcp-progress';
import { serveMcp } from '../serve-mcp';

class HangTool extends BaseTool {
  readonly name = 'hang';
  readonly description = 'Never answers.';
  readonly parameters: JsonSchema = { type: 'object', properties: {} };
  async run(): Promise<Record<string, unknown>> {
    process.stdout.write('STARTED\n');
    return new Promise(() => undefined);
  }
}

class HangStreamingTool extends BaseTool {
  readonly name = 'hang_streaming';
  readonly description = 'Reports progress, then never answers.';
  readonly parameters: JsonSchema = { type: 'object', properties: {} };
  async run(_args: Record<string, unknown>, context: ToolContext): Promise<Record<string, unknown>> {
    await reportMcpProgress(context, { progress: 1, message: 'working' });
    return new Promise(() => undefined);
  }
}

class NoteTool extends BaseTool {
  readonly name = 'note';
  readonly description = 'Answers at once.';
  readonly parameters: JsonSchema = { type: 'object', properties: {} };
  async run(): Promise<Record<string, unknown>> {
    return { noted: true };
  }
}

void serveMcp({ tools: [new HangTool(), new HangStreamingTool(), new NoteTool()], transport: { http: { port: Number(process.env.PORT ?? 0) } }, name: 'child' }).then((server) => {
  process.stdout.write(`URL ${server.url}\n`);
});
