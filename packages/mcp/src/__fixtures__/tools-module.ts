// A module as `toolsmith mcp <module>` receives it: @Toolset classes, tools, their providers and an artifact service.
import { InMemoryArtifactService } from '@toolsmith/core';
import { ForecastApi, ForecastTools } from './forecast-tools';
import { createServedTestTools } from './served-tools';
import { createServiceTools } from './service-tools';

export { ForecastTools };
// Exports in alphabetical order: esbuild's CommonJS output lists a module's exports so, TypeScript's in source order.
export const saveNote = createServiceTools()[0];
export const weather = createServedTestTools().weather;
export const providers = [{ provide: ForecastApi, useValue: new ForecastApi('module-stub') }];
export const artifactService = new InMemoryArtifactService();
export const notATool = { hello: 'world' };
export const version = 3;

console.log('a module that logs while loading must not break the protocol');
