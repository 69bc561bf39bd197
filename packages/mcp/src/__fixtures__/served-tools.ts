import { BaseTool, type JsonSchema, type ToolContext, functionTool } from '@toolsmith/core';
import { reportMcpProgress } from '../report-mcp-progress';

/** Hand-written tools served by `serveMcp` in the tests. */
class CountVisitsTool extends BaseTool {
  readonly name = 'count_visits';
  readonly description = 'Counts calls in this session, for this user and for the app.';
  readonly parameters: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

  run(_args: Record<string, unknown>, context: ToolContext) {
    const next = (key: string) => {
      const value = (context.state.get<number>(key) ?? 0) + 1;
      context.state.set(key, value);
      return value;
    };
    return { session: next('visits'), user: next('user:visits'), app: next('app:visits'), sessionId: context.sessionId };
  }
}

/** A tool that asks about this very draft with `editable: false` before it publishes; `published` lists what ran. */
export function createPublishTool(published: string[]) {
  return functionTool({
    name: 'publish',
    description: 'Publishes a draft (asks about this very draft).',
    parameters: { type: 'object', properties: { draft: { type: 'string' } }, required: ['draft'] },
    execute: (args: { draft: string }, ctx) => {
      if (!ctx.toolConfirmation) {
        ctx.requestConfirmation({ hint: `Publish ${args.draft} as it stands?`, editable: false });
        return {};
      }
      published.push(args.draft);
      return { published: args.draft };
    },
  });
}

/** Deletes nothing, but only after the user confirmed; records that it ran. */
export class DangerousTool extends BaseTool {
  readonly name = 'delete_everything';
  readonly description = 'Deletes everything (asks first).';
  readonly parameters: JsonSchema = { type: 'object', properties: { scope: { type: 'string' } }, required: ['scope'] };
  override readonly requireConfirmation = true;
  runs = 0;
  /** The arguments of each run, in order. */
  readonly ranWith: Record<string, unknown>[] = [];

  run(args: Record<string, unknown>, context: ToolContext) {
    this.runs++;
    this.ranWith.push(args);
    return { deleted: args.scope, confirmed: context.toolConfirmation?.confirmed ?? false };
  }
}

class SlowExportTool extends BaseTool {
  readonly name = 'slow_export';
  readonly description = 'Exports a table slowly.';
  readonly parameters: JsonSchema = { type: 'object', properties: { pages: { type: 'integer', minimum: 1 } }, required: ['pages'] };
  override readonly isLongRunning = true;

  async run(args: Record<string, unknown>, context: ToolContext) {
    const pages = args.pages as number;
    await new Promise((resolve) => setTimeout(resolve, 120)); // long enough for a heartbeat or two
    for (let page = 1; page <= pages; page++) {
      await reportMcpProgress(context, { progress: page, total: pages, message: `page ${page}` });
    }
    return { status: 'done', pages };
  }
}

class WeatherTool extends BaseTool {
  readonly name = 'get_weather';
  readonly description = 'Retrieves the current weather report for a city.';
  readonly parameters: JsonSchema = {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' }, unit: { enum: ['celsius', 'fahrenheit'] } },
    required: ['city'],
    additionalProperties: false,
  };

  run(args: Record<string, unknown>) {
    if (args.city === 'Atlantis') throw new Error('no weather data for Atlantis');
    return { city: args.city, report: `Sunny in ${String(args.city)}`, unit: args.unit ?? 'celsius' };
  }
}

/** A fresh set of the test tools. */
export function createServedTestTools() {
  return {
    weather: new WeatherTool(),
    counter: new CountVisitsTool(),
    dangerous: new DangerousTool(),
    slowExport: new SlowExportTool(),
  };
}

/** A run of one of the {@link createDiskTools}: the tool, the disk, and the question the confirmation answered. */
export interface DiskToolRun {
  tool: string;
  disk: string;
  question?: string;
}

/**
 * Served tools whose question names what the disk holds (a different question for other arguments, or once
 * `holds` changes): `wipe` asks with `editable: false` (its question is about this very disk), `erase` lets
 * the person edit. Each run is told to `ran` with the question its confirmation answered.
 */
export function createDiskTools(ran: (run: DiskToolRun) => void, holds: (disk: string) => string) {
  const diskTool = (name: 'wipe' | 'erase', editable: boolean) =>
    functionTool({
      name,
      description: `${name === 'wipe' ? 'Wipes' : 'Erases'} a disk (asks first).`,
      parameters: { type: 'object', properties: { disk: { type: 'string' } }, required: ['disk'] },
      execute: (args: { disk: string }, context) => {
        if (!context.toolConfirmation) {
          context.requestConfirmation({ hint: `${name === 'wipe' ? 'Wipe' : 'Erase'} ${args.disk}? It holds ${holds(args.disk)}.`, ...(editable ? {} : { editable: false }) });
          return {};
        }
        ran({ tool: name, disk: args.disk, question: context.toolConfirmation.hint });
        return { [name === 'wipe' ? 'wiped' : 'erased']: args.disk };
      },
    });
  return { wipe: diskTool('wipe', false), erase: diskTool('erase', true) };
}
