import { LlmAgent } from '../agents/llm-agent';
import { Param } from '../decorators/param.decorator';
import { Container } from '../di/container';
import { ContainerAdapter } from '../di/container-adapter';
import { AgentTool } from '../agent-tool/agent-tool';
import { DependencyResolutionError } from '../errors/dependency-resolution-error';
import { ScriptedModel } from '../testing/scripted-model';
import { Tool } from '../tools/tool';
import { ToolContext } from '../tools/tool-context';
import { Toolset } from '../tools/toolset';
import { collect } from './__fixtures__/test-tools';
import { Runner } from './runner';

class Forecasts {
  calls = 0;
  for(city: string) {
    this.calls++;
    return `Sunny in ${city}`;
  }
}

@Toolset({ prefix: 'weather_' })
class WeatherTools {
  constructor(private readonly forecasts: Forecasts) {}

  @Tool({ description: 'Current weather for a city.' })
  report(@Param('city') city: string, ctx: ToolContext) {
    ctx.state.set('lastCity', city);
    return { report: this.forecasts.for(city) };
  }
}

describe('Runner: decorated classes as tools', () => {
  it('scans a @Toolset class once, builds it through the providers and runs its tools', async () => {
    const forecasts = new Forecasts();
    const model = new ScriptedModel([{ calls: [{ name: 'weather_report', args: { city: 'Nice' } }] }, 'Sunny in Nice.']);
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'root', model, tools: [WeatherTools] }),
      providers: [{ provide: Forecasts, useValue: forecasts }],
    });

    const events = await collect(runner, 'Nice?');

    expect(model.requests[0].tools).toEqual([
      expect.objectContaining({ name: 'weather_report', description: 'Current weather for a city.', parameters: expect.objectContaining({ required: ['city'] }) }),
    ]);
    expect(events[1].functionResponses()[0].response).toEqual({ report: 'Sunny in Nice' });
    expect(events[1].actions.stateDelta).toEqual({ lastCity: 'Nice' });
    expect(forecasts.calls).toBe(1);
  });

  it('uses a given container, and an instance as it is', async () => {
    const container = new Container([Forecasts]);
    const instance = new WeatherTools(new Forecasts());
    const model = new ScriptedModel([{ calls: [{ name: 'weather_report', args: { city: 'Oslo' } }] }, 'ok']);
    const viaContainer = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [WeatherTools] }), container });
    expect((await collect(viaContainer, 'x'))[1].functionResponses()[0].response).toEqual({ report: 'Sunny in Oslo' });

    const model2 = new ScriptedModel([{ calls: [{ name: 'weather_report', args: { city: 'Rome' } }] }, 'ok']);
    const viaInstance = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: model2, tools: [instance] }) });
    expect((await collect(viaInstance, 'x'))[1].functionResponses()[0].response).toEqual({ report: 'Sunny in Rome' });
  });

  it('fails at startup for a class without tools', () => {
    class Plain {}
    expect(() => new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model: new ScriptedModel([]), tools: [Plain] }) })).toThrow(/Plain/);
  });

  it('fails at startup, naming the chain and the fix, when a @Toolset dependency has no provider (also in an AgentTool\'s agent)', () => {
    const model = new ScriptedModel([]);
    const build = () => new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [WeatherTools] }) });
    expect(thrownBy(build)).toBeInstanceOf(DependencyResolutionError);
    expect(build).toThrow('Cannot resolve Forecasts: no provider is registered for it (dependency chain: WeatherTools -> Forecasts). Fix: add it to the providers');

    const helper = new LlmAgent({ name: 'helper', model, tools: [WeatherTools] });
    const viaAgentTool = () => new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [new AgentTool({ agent: helper })] }) });
    expect(viaAgentTool).toThrow('dependency chain: WeatherTools -> Forecasts');
    // A Container passed as `container` is checked the same way.
    expect(() => new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [WeatherTools] }), container: new Container() })).toThrow(
      'dependency chain: WeatherTools -> Forecasts',
    );
  });

  it('leaves an external container alone at startup: it may provide the dependency later', async () => {
    const inner = new Container();
    const external: ContainerAdapter = {
      resolve: (token, scope) => {
        if (!inner.has(Forecasts)) inner.register({ provide: Forecasts, useValue: new Forecasts() }); // e.g. a request-scoped provider
        return inner.resolve(token, scope);
      },
    };
    const model = new ScriptedModel([{ calls: [{ name: 'weather_report', args: { city: 'Lima' } }] }, 'ok']);
    const runner = new Runner({ appName: 'app', agent: new LlmAgent({ name: 'root', model, tools: [WeatherTools] }), container: external });
    expect((await collect(runner, 'x'))[1].functionResponses()[0].response).toEqual({ report: 'Sunny in Lima' });
  });
});

/** What `fn` throws (`undefined` when it does not). */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}
