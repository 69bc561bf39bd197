import { Tool, ToolContext, Toolset } from '@toolsmith/core';
import { Category, GeoPoint, Report, Stop, Unit } from './shapes';

/** Plans trips. Everything a tool needs is written once, in TypeScript and JSDoc. */
@Toolset({ prefix: 'trip_' })
export class TripTools {
  /**
   * Retrieves the current weather report for a city.
   *
   * Longer explanation that is not part of the summary.
   * @param city City name, e.g. Paris
   * @param unit Unit of the temperatures
   * @param days How many days to forecast
   */
  @Tool()
  async getWeather(city: string, unit: Unit = 'celsius', days?: 1 | 3 | 7, ctx?: ToolContext): Promise<Report> {
    void ctx;
    return { city, temperature: days ?? 20, unit, notes: {} };
  }

  /**
   * Plans a route through stops.
   * @param stops The stops, in order
   * @param start Where the trip begins
   * @param departure When to leave
   * @param avoidTolls Whether to avoid toll roads
   * @param budget Spending limit per category
   */
  @Tool({ description: 'Plans a route (explicit description wins).' })
  planRoute(
    ctx: ToolContext,
    stops: Stop[],
    start: GeoPoint,
    departure: Date,
    avoidTolls = false,
    budget?: Record<string, number>,
  ): { distanceKm: number; legs: Array<{ from: string; to: string }> } {
    void ctx;
    return { distanceKm: stops.length + (avoidTolls ? 1 : 0) + (budget ? 0 : 0) + start.lat + departure.getTime() * 0, legs: [] };
  }

  /** Lists categories of places. */
  @Tool()
  listCategories(root: Category): Category[] {
    return root.children;
  }

  /** Not a tool: no decorator. */
  helper(): void {}
}
