// A module as `toolsmith mcp <module>` receives it: @Toolset classes, a tool, and their providers.
import { ForecastApi, ForecastTools } from './forecast-tools';
import { createServedTestTools } from './served-tools';

export { ForecastTools };
export const weather = createServedTestTools().weather;
export const providers = [{ provide: ForecastApi, useValue: new ForecastApi('module-stub') }];
export const notATool = { hello: 'world' };
export const version = 3;

console.log('a module that logs while loading must not break the protocol');
