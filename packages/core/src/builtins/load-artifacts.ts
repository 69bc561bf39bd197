import type { Content, Part } from '../model/content';
import type { JsonSchema } from '../model/json-schema';
import type { LlmRequest } from '../model/llm-request';
import { BaseTool } from '../tools/base-tool';
import type { ToolContext } from '../tools/tool-context';

/**
 * The tool behind {@link loadArtifacts}. Tells the model which artifacts exist; when the model asks for
 * some, their content is attached to the next request as user content (so images and files reach
 * multimodal models as parts, not as JSON text).
 */
export class LoadArtifactsTool extends BaseTool {
  /** The name the model calls it by; also how `processRequest` finds its result in the last content. */
  readonly name = 'load_artifacts';
  /** What the model is told the tool does; the artifact names themselves go in the system instruction. */
  readonly description = 'Loads the artifacts (files) of this session by name, so you can read them.';
  /** One argument, `artifactNames`: the names of the artifacts to load. */
  readonly parameters: JsonSchema = {
    type: 'object',
    properties: { artifactNames: { type: 'array', items: { type: 'string' }, description: 'Names of the artifacts to load.' } },
    required: ['artifactNames'],
    additionalProperties: false,
  };

  /** Answers with the requested names that exist (and `notFound` for the others); their content is attached by `processRequest`. */
  async run(args: Record<string, unknown>, context: ToolContext): Promise<Record<string, unknown>> {
    const available = new Set(await context.listArtifacts());
    const names = args.artifactNames as string[];
    const missing = names.filter((n) => !available.has(n));
    return { artifactNames: names.filter((n) => available.has(n)), ...(missing.length ? { notFound: missing } : {}) };
  }

  /**
   * Before each request: lists the session's artifacts in the system instruction and, right after this tool answered,
   * appends the loaded artifacts to the request as user content. Does nothing when the session has no artifacts.
   */
  override async processRequest(context: ToolContext, request: LlmRequest): Promise<void> {
    const names = await context.listArtifacts();
    if (names.length === 0) return;
    const note = `You have a list of artifacts: ${JSON.stringify(names)}. When the user asks about one of them, call \`${this.name}\` to load it before answering.`;
    request.systemInstruction = request.systemInstruction ? `${request.systemInstruction}\n\n${note}` : note;

    const last = request.contents[request.contents.length - 1];
    const response = last?.parts.find((p) => p.functionResponse?.name === this.name)?.functionResponse;
    const loaded = response?.response.artifactNames;
    if (!Array.isArray(loaded)) return;
    const parts: Part[] = [];
    for (const name of loaded as string[]) {
      const artifact = await context.loadArtifact(name);
      if (artifact) parts.push({ text: `Artifact ${name} is:` }, artifact);
    }
    if (parts.length > 0) request.contents.push({ role: 'user', parts } satisfies Content);
  }
}

/** Lets the model load the session's artifacts (needs an `artifactService` on the Runner). */
export const loadArtifacts: BaseTool = new LoadArtifactsTool();
