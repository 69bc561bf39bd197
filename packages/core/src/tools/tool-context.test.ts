import { ToolsmithError } from '../errors/toolsmith-error';
import { testToolContext } from '../testing/test-tool-context';
import type { ToolContext } from './tool-context';

// No memoryService or artifactService given.
const bareContext = (): ToolContext => testToolContext();

describe('ToolContext without services', () => {
  it('says which service searchMemory needs and where to give it', async () => {
    const error = await bareContext().searchMemory('tea').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolsmithError);
    expect(error).toMatchObject({ code: 'SERVICE_NOT_CONFIGURED' });
    expect((error as Error).message).toBe(
      'No memoryService was given, so ctx.searchMemory cannot run. ' +
        'Fix: pass `memoryService` in the Runner options, or in the serveMcp options when the tools are served over MCP.',
    );
  });

  it.each([
    ['saveArtifact', (ctx: ToolContext) => ctx.saveArtifact('a.txt', { text: 'x' })],
    ['loadArtifact', (ctx: ToolContext) => ctx.loadArtifact('a.txt')],
    ['listArtifacts', (ctx: ToolContext) => ctx.listArtifacts()],
  ])('says which service %s needs and where to give it', async (method, use) => {
    const ctx = bareContext();
    const error = await use(ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVICE_NOT_CONFIGURED' });
    expect((error as Error).message).toBe(
      `No artifactService was given, so ctx.${method} cannot run. ` +
        'Fix: pass `artifactService` in the Runner options, or in the serveMcp options when the tools are served over MCP.',
    );
    expect(ctx.actions.artifactDelta).toEqual({});
  });
});
