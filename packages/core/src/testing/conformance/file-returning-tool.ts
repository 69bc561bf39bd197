import { functionTool } from '../../function-tool/function-tool';
import type { BaseTool } from '../../tools/base-tool';
import { type ToolFile, toolResult } from '../../tools/tool-file';

/** Small files (base64) for tests of files from tools: the PNG signature and header start, a minimal PDF, a WAV header start. */
export const SAMPLE_FILES = {
  png: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64'),
  pdf: Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1').toString('base64'),
  wav: Buffer.from('RIFF\0\0\0\0WAVEfmt ', 'latin1').toString('base64'),
} as const;

/** The tool `render_report` (no parameters) for wire tests of files from tools: it returns `{ pages: 1 }` with `files`. */
export function fileReturningTool(files: () => ToolFile[]): BaseTool {
  return functionTool({
    name: 'render_report',
    description: 'Renders the sales report.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    execute: () => toolResult({ pages: 1 }, files()),
  });
}
