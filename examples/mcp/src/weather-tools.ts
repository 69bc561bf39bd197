import { Param, Tool, ToolContext, Toolset } from '@toolsmith/core';
import { WeatherService } from './weather-service';

/** The weather tools this example serves over MCP. The container builds it with its `WeatherService`. */
@Toolset()
export class WeatherTools {
  constructor(private readonly weather: WeatherService) {}

  @Tool({ description: 'Retrieves the current weather report for a city.' })
  getWeatherReport(
    @Param('city', { description: 'The name of the city, e.g. London' }) city: string,
    @Param('unit', { enum: ['celsius', 'fahrenheit'], default: 'celsius' }) unit: 'celsius' | 'fahrenheit',
    ctx: ToolContext,
  ) {
    const current = this.weather.current(city);
    if (!current) return { status: 'error', errorMessage: `Weather information for '${city}' is not available.` };
    // Kept per MCP session by the server: the next call in this session can see it.
    ctx.state.set('lastCity', city);
    const temperature = unit === 'fahrenheit' ? Math.round((current.temperatureC * 9) / 5 + 32) : current.temperatureC;
    return {
      status: 'success',
      report: `The weather in ${city} is ${current.condition}, ${temperature} degrees ${unit === 'fahrenheit' ? 'Fahrenheit' : 'Celsius'}.`,
    };
  }

  @Tool({ description: 'Names the city of the last weather report in this session.' })
  lastCity(ctx: ToolContext) {
    return { city: ctx.state.get<string>('lastCity') ?? null };
  }
}
