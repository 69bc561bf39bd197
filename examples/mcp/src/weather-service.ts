/** One city's current weather. */
export interface CurrentWeather {
  condition: string;
  temperatureC: number;
}

/**
 * Where the weather comes from: fixed data for the example. A real server would call a weather API
 * here; the tools, and everything MCP clients see, would stay the same.
 */
export class WeatherService {
  private readonly cities: Record<string, CurrentWeather> = {
    london: { condition: 'cloudy with a chance of rain', temperatureC: 18 },
    paris: { condition: 'sunny', temperatureC: 25 },
    tokyo: { condition: 'clear', temperatureC: 21 },
  };

  /** The current weather in `city`, or `undefined` for a city without data. */
  current(city: string): CurrentWeather | undefined {
    return this.cities[city.trim().toLowerCase()];
  }
}
