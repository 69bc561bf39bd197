import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { hashSource } from '@toolsmith/core/internal';
import { sourceProcessArgs } from './__fixtures__/source-process';

// A project of a user's: a toolset written in plain TypeScript (no @Param: the manifest describes it),
// its toolsmith.schema.json at the package root, and `toolsmith mcp src/tools.ts` run from elsewhere.
const TOOLS_SOURCE = `import { Tool, Toolset } from '@toolsmith/core';

@Toolset()
export class NoteTools {
  @Tool()
  addNote(text: string, priority?: number) {
    return { saved: text, priority: priority ?? 0 };
  }
}
`;

describe('toolsmith mcp <module>: the manifest next to the served module', () => {
  let project: string;
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'toolsmith-manifest-project-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'notes-app', private: true }));
    const srcDir = join(project, 'src');
    mkdirSync(srcDir);
    writeFileSync(join(srcDir, 'tools.ts'), TOOLS_SOURCE);
    writeFileSync(
      join(project, 'toolsmith.schema.json'),
      JSON.stringify({
        version: 1,
        generator: 'test',
        toolsets: {
          NoteTools: {
            source: 'src/tools.ts',
            sourceHash: hashSource(TOOLS_SOURCE),
            methods: {
              addNote: {
                description: 'Saves a note.',
                parameters: [
                  { name: 'text', index: 0, schema: { type: 'string', minLength: 1 }, optional: false },
                  { name: 'priority', index: 1, schema: { type: 'integer' }, optional: true },
                ],
              },
            },
          },
        },
      }),
    );
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('is found from the module (not from the command) and describes the manifest-only toolset', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...sourceProcessArgs('serve-module-fixture.ts'), join(project, 'src', 'tools.ts')],
      env: { ...process.env, TOOLSMITH_MANIFEST: '' } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'manifest-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools).toEqual([expect.objectContaining({ name: 'addNote', description: 'Saves a note.' })]);
      expect(tools[0].inputSchema).toMatchObject({ properties: { text: { type: 'string', minLength: 1 }, priority: { type: 'integer' } }, required: ['text'] });
      const result = (await client.callTool({ name: 'addNote', arguments: { text: 'milk' } })) as CallToolResult;
      expect(result.structuredContent).toEqual({ saved: 'milk', priority: 0 });
    } finally {
      await client.close();
    }
    expect(stderr).not.toContain('UNDECORATED_PARAMETER');
  });
});
