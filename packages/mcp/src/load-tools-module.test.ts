import { join } from 'node:path';
import { InMemoryArtifactService } from '@toolsmith/core';
import { loadToolsModule } from './load-tools-module';
import { ForecastApi, ForecastTools } from './__fixtures__/forecast-tools';

const fixtures = join(__dirname, '__fixtures__');

describe('loadToolsModule', () => {
  it("collects the exported @Toolset classes, tools and toolsets, and the module's providers", () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const loaded = loadToolsModule('tools-module.ts', fixtures);
    log.mockRestore();
    expect(loaded.tools).toHaveLength(3);
    expect(loaded.tools[0]).toBe(ForecastTools);
    expect(loaded.tools[1]).toMatchObject({ name: 'save_note' });
    expect(loaded.tools[2]).toMatchObject({ name: 'get_weather' });
    expect(loaded.providers).toEqual([{ provide: ForecastApi, useValue: expect.any(ForecastApi) }]);
    expect(loaded.artifactService).toBeInstanceOf(InMemoryArtifactService);
    expect(loaded.memoryService).toBeUndefined();
  });

  it('says what is wrong with a module that cannot be served', () => {
    expect(() => loadToolsModule('missing.ts', fixtures)).toThrow(expect.objectContaining({ code: 'MCP_MODULE_NOT_FOUND' }));
    expect(() => loadToolsModule('fixture-mcp-server.ts', fixtures)).toThrow(expect.objectContaining({ code: 'MCP_NO_TOOLS_EXPORTED' }));
    expect(() => loadToolsModule('broken-module.ts', fixtures)).toThrow(
      expect.objectContaining({ code: 'MCP_MODULE_LOAD_FAILED', message: expect.stringContaining('database is down') }),
    );
    expect(() => loadToolsModule('bad-service-module.ts', fixtures)).toThrow(
      expect.objectContaining({ code: 'MCP_MODULE_LOAD_FAILED', message: expect.stringContaining('exports `memoryService`, but it has no searchMemory method') }),
    );
  });
});
