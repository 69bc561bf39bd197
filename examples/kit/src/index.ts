// Shared by the examples (not a published package): provider picking, event printing, and the
// weather tools (with their offline model) that the weather-agent and MCP examples both use.
export { pickModel } from './pick-model';
export type { PickedModel } from './pick-model';
export { printEvent } from './print-event';
export { WeatherService } from './weather-service';
export type { WeatherReport } from './weather-service';
export { WeatherTools } from './weather-tools';
export { createWeatherOfflineModel } from './weather-offline-model';
