import { Param } from '../decorators/param.decorator';
import { ToolContext } from '../tools/tool-context';
import { Tool } from '../tools/tool';
import { Toolset } from '../tools/toolset';
import type { JsonSchema } from '../model/json-schema';
import type { ManifestMethod } from './manifest-document';
import { ToolManifest } from './manifest';
import { scanTools } from './tool-scanner';

// What older generators wrote for a ToolContext named through a type alias: its whole class as an argument.
const CONTEXT_SHAPED: JsonSchema = {
  type: 'object',
  properties: Object.fromEntries(
    ['functionCallId', 'invocationId', 'agentName', 'appName', 'userId', 'sessionId', 'state', 'actions', 'signal', 'idempotencyKey'].map((name) => [name, {}]),
  ),
};

type Context = ToolContext;

@Toolset()
class AliasTools {
  // Decorator metadata of an alias is `Object`: only the manifest says what this parameter is.
  @Tool()
  whoAmI(city: string, ctx: Context) {
    return { city, userId: ctx.userId };
  }
}

@Toolset()
class ParamTools {
  @Tool()
  whoAmI(city: string, @Param('ctx') ctx: ToolContext) {
    return { city, userId: ctx.userId };
  }
}

function manifestFor(className: string, method: ManifestMethod): ToolManifest {
  const toolsets = { [className]: { source: 'not-deployed.ts', sourceHash: `sha256:${'0'.repeat(64)}`, methods: { whoAmI: method } } };
  return new ToolManifest({ version: 1, generator: 'test', toolsets }, '/nowhere/toolsmith.schema.json');
}

const cityAnd = (ctx: JsonSchema): ManifestMethod => ({
  parameters: [
    { name: 'city', index: 0, schema: { type: 'string' }, optional: false },
    { name: 'ctx', index: 1, schema: ctx, optional: false },
  ],
});

describe('a manifest never lets the model fill the context', () => {
  it('refuses a manifest argument whose schema is the ToolContext class', () => {
    const scan = () => scanTools(AliasTools, { manifest: manifestFor('AliasTools', cityAnd(CONTEXT_SHAPED)) });
    expect(scan).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETERS' }));
    expect(scan).toThrow(/AliasTools\.whoAmI.*the manifest makes this parameter, which is the ToolContext, an argument the model fills.*toolsmith schema/);
  });

  it('refuses a manifest argument where the method declares ToolContext, whatever its schema', () => {
    const scan = () => scanTools(ParamTools, { manifest: manifestFor('ParamTools', cityAnd({ type: 'object' })) });
    expect(scan).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETERS', message: expect.stringContaining('which is the ToolContext') }));
  });

  it('still takes an ordinary object argument from the manifest', () => {
    const [tool] = scanTools(AliasTools, { manifest: manifestFor('AliasTools', cityAnd({ type: 'object', properties: { userId: { type: 'string' } } })) });
    expect(tool.parameters.required).toEqual(['city', 'ctx']);
  });
});
