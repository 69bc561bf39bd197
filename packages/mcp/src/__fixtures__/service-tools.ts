import { BaseTool, type JsonSchema, type ToolContext } from '@toolsmith/core';

/** Saves a text note as an artifact of the session; answers with the version. */
class SaveNoteTool extends BaseTool {
  readonly name = 'save_note';
  readonly description = 'Saves a note as an artifact.';
  readonly parameters: JsonSchema = {
    type: 'object',
    properties: { filename: { type: 'string' }, text: { type: 'string' } },
    required: ['filename', 'text'],
  };

  async run(args: Record<string, unknown>, context: ToolContext) {
    const version = await context.saveArtifact(args.filename as string, { text: args.text as string });
    return { version, files: await context.listArtifacts() };
  }
}

/** Reads a note saved by {@link SaveNoteTool}. */
class ReadNoteTool extends BaseTool {
  readonly name = 'read_note';
  readonly description = 'Reads a note artifact.';
  readonly parameters: JsonSchema = { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] };

  async run(args: Record<string, unknown>, context: ToolContext) {
    const part = await context.loadArtifact(args.filename as string);
    return { text: part?.text ?? null };
  }
}

/** Searches the user's memory; answers with the remembered texts. */
class RecallTool extends BaseTool {
  readonly name = 'recall';
  readonly description = 'Searches long-term memory.';
  readonly parameters: JsonSchema = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };

  async run(args: Record<string, unknown>, context: ToolContext) {
    const { memories } = await context.searchMemory(args.query as string);
    return { texts: memories.flatMap((memory) => memory.content.parts.map((part) => part.text ?? '')) };
  }
}

/** Tools that use the memory and artifact services through their context. */
export function createServiceTools(): BaseTool[] {
  return [new SaveNoteTool(), new ReadNoteTool(), new RecallTool()];
}
