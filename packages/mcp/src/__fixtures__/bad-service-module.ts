// A module whose `memoryService` export is not a memory service.
export { ForecastTools } from './forecast-tools';
export const memoryService = { search: () => [] };
