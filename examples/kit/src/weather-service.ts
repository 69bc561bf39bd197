/** One city's current weather. */
export interface WeatherReport {
  condition: string;
  temperatureC: number;
}

/**
 * Where the weather comes from. The demo's data is fixed (as in the ADK example); a real app would
 * call a weather API here, and the tools would not change.
 */
export class WeatherService {
  private readonly reports: Record<string, WeatherReport> = {
    london: { condition: 'cloudy with a chance of rain', temperatureC: 18 },
    paris: { condition: 'sunny', temperatureC: 25 },
    'new york': { condition: 'sunny', temperatureC: 25 },
  };

  /** The current report for `city`, or `undefined` when the city is unknown. */
  current(city: string): WeatherReport | undefined {
    return this.reports[city.trim().toLowerCase()];
  }
}
