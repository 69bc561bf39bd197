import { Param, Tool, ToolContext, Toolset } from '@toolsmith/core';
import { WeatherService } from './weather-service';

/** Weather lookups. The container builds it with its `WeatherService`. */
@Toolset()
export class WeatherTools {
  constructor(private readonly weather: WeatherService) {}

  @Tool({ description: 'Retrieves the current weather report for a specified city.' })
  getWeatherReport(@Param('city', { description: 'The name of the city, e.g. London' }) city: string, ctx: ToolContext) {
    const report = this.weather.current(city);
    if (!report) return { status: 'error', errorMessage: `Weather information for '${city}' is not available.` };
    ctx.state.set('user:lastCity', city);
    return {
      status: 'success',
      report: `The current weather in ${city} is ${report.condition} with a temperature of ${report.temperatureC} degrees Celsius.`,
    };
  }
}
