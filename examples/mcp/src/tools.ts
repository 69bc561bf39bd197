// What `toolsmith mcp dist/tools.js` serves: the exported @Toolset classes, with `providers` for
// their constructor dependencies. The weather tools are the weather-agent example's, shared through the kit.
import { WeatherService } from '@toolsmith/example-kit';

export { WeatherTools } from '@toolsmith/example-kit';
export const providers = [WeatherService];
