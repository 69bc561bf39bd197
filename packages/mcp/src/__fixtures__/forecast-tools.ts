import { Param, Tool, ToolContext, Toolset } from '@toolsmith/core';

/** A dependency of {@link ForecastTools}, provided through the container. */
export class ForecastApi {
  constructor(readonly source: string) {}

  forecast(city: string, days: number): string {
    return `${days}-day forecast for ${city} from ${this.source}: mild`;
  }
}

/** A decorated toolset served by `serveMcp` in the tests (DI + reflection-built schema). */
@Toolset({ prefix: 'wx_' })
export class ForecastTools {
  constructor(private readonly api: ForecastApi) {}

  @Tool({ description: 'Forecast for a city.' })
  forecast(
    @Param('city', { description: 'City name' }) city: string,
    @Param('days', { default: 3 }) days: number,
    context: ToolContext,
  ) {
    return { forecast: this.api.forecast(city, days), session: context.sessionId };
  }
}
