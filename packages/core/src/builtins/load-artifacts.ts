import type { Content, Part } from '../model/content';
import type { JsonSchema } from '../model/json-schema';
import type { LlmRequest } from '../model/llm-request';
import { BaseTool } from '../tools/base-tool';
import type { ToolContext } from '../tools/tool-context';
import { isBase64Data, isFileName, isMediaType, quotedMediaType } from '../internal/inline-data-rules';
import { mediaMismatch } from '../internal/media-signatures';

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
      if (artifact) parts.push({ text: `Artifact ${name} is:` }, ...sendableParts(artifact));
    }
    if (parts.length > 0) request.contents.push({ role: 'user', parts } satisfies Content);
  }
}

/**
 * What the model is sent of a loaded artifact, in a user turn: its text (a string), and its file checked as a
 * user's and a tool's files are (a `type/subtype` media type, sent in lower case; standard base64; bytes that are
 * what a PNG, JPEG, GIF, WebP or PDF type says; a string name), a note in place of a file that fails them (the
 * provider would refuse the request, on every turn that loads the artifact again). Nothing else of the part
 * (a call, a thought, a signature, provider data) is sent: a user turn carries none of them.
 */
function sendableParts(artifact: Part): Part[] {
  const parts: Part[] = [];
  const { text, inlineData: file } = artifact;
  if (typeof text === 'string' && !artifact.thought) parts.push({ text });
  if (file) {
    const { mimeType, data, displayName } = file;
    const problem = fileProblem(mimeType, data);
    if (problem) parts.push({ text: `[The artifact's file cannot be sent: ${problem}.]` });
    else {
      const lowerCase = mimeType.toLowerCase();
      parts.push({ inlineData: isFileName(displayName) && displayName !== '' ? { mimeType: lowerCase, data, displayName } : { mimeType: lowerCase, data } });
    }
  }
  return parts.length > 0 ? parts : [{ text: "[The artifact holds no text or file that can be sent.]" }];
}

function fileProblem(mimeType: unknown, data: unknown): string | undefined {
  if (!isMediaType(mimeType)) return `its media type ${quotedMediaType(mimeType)} is not "type/subtype"`;
  if (!isBase64Data(data)) return 'its data is not standard base64';
  const mismatch = mediaMismatch(mimeType, data);
  return mismatch && `it is declared ${mimeType} ${mismatch}`;
}

/** Lets the model load the session's artifacts (needs an `artifactService` on the Runner). */
export const loadArtifacts: BaseTool = new LoadArtifactsTool();
