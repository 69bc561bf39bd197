import type { Event } from '../../events/event';
import type { JsonSchema } from '../../model/json-schema';
import { BaseTool } from '../../tools/base-tool';
import type { ToolContext } from '../../tools/tool-context';
import type { Runner } from '../runner';

/** A hand-written tool whose behaviour is a function, for runner tests. */
export class FnTool extends BaseTool {
  readonly parameters: JsonSchema;
  override readonly isLongRunning: boolean;

  constructor(
    readonly name: string,
    private readonly impl: (args: Record<string, unknown>, context: ToolContext) => unknown,
    options: { parameters?: JsonSchema; description?: string; longRunning?: boolean; requireConfirmation?: boolean } = {},
  ) {
    super();
    this.parameters = options.parameters ?? { type: 'object', properties: {}, additionalProperties: true };
    this.description = options.description ?? `The ${name} tool.`;
    this.isLongRunning = options.longRunning ?? false;
    if (options.requireConfirmation !== undefined) (this as { requireConfirmation?: boolean }).requireConfirmation = options.requireConfirmation;
  }

  readonly description: string;

  run(args: Record<string, unknown>, context: ToolContext): unknown {
    return this.impl(args, context);
  }
}

/** `getWeather({ city })`: a typical tool with a required string argument. */
export const weatherTool = () =>
  new FnTool('getWeather', (args) => ({ status: 'success', report: `Sunny in ${args.city}` }), {
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  });

/** A user text message. */
export const user = (text: string) => ({ role: 'user' as const, parts: [{ text }] });

/** Runs one invocation and collects its events. */
export async function collect(runner: Runner, text: string, extra: { userId?: string; sessionId?: string; signal?: AbortSignal; streaming?: boolean } = {}): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: extra.userId ?? 'u1', sessionId: extra.sessionId ?? 's1', newMessage: user(text), signal: extra.signal, streaming: extra.streaming })) {
    events.push(event);
  }
  return events;
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
