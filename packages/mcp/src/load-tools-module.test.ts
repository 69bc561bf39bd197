import { join } from 'node:path';
import { loadToolsModule } from './load-tools-module';
import { ForecastApi, ForecastTools } from './__fixtures__/forecast-tools';

const fixtures = join(__dirname, '__fixtures__');

describe('loadToolsModule', () => {
  it("collects the exported @Toolset classes, tools and toolsets, and the module's providers", () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const loaded = loadToolsModule('tools-module.ts', fixtures);
    log.mockRestore();
    expect(loaded.tools).toHaveLength(2);
    expect(loaded.tools[0]).toBe(ForecastTools);
    expect(loaded.tools[1]).toMatchObject({ name: 'get_weather' });
    expect(loaded.providers).toEqual([{ provide: ForecastApi, useValue: expect.any(ForecastApi) }]);
  });

  it('says what is wrong with a module that cannot be served', () => {
    expect(() => loadToolsModule('missing.ts', fixtures)).toThrow(expect.objectContaining({ code: 'MCP_MODULE_NOT_FOUND' }));
    expect(() => loadToolsModule('fixture-mcp-server.ts', fixtures)).toThrow(expect.objectContaining({ code: 'MCP_NO_TOOLS_EXPORTED' }));
    expect(() => loadToolsModule('broken-module.ts', fixtures)).toThrow(
      expect.objectContaining({ code: 'MCP_MODULE_LOAD_FAILED', message: expect.stringContaining('database is down') }),
    );
  });
});
