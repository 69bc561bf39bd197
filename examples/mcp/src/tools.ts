// What `toolsmith mcp dist/tools.js` serves: the exported @Toolset classes, with `providers` for
// their constructor dependencies.
import { WeatherService } from './weather-service';

export { WeatherTools } from './weather-tools';
export const providers = [WeatherService];
