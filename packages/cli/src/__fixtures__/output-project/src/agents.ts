import { manifestType } from '@toolsmith/core';
import type { Forecast, Outline } from './forecast';

// `toolsmith schema` writes the schema of each type argument under the name beside it.
export const forecastOutput = manifestType<Forecast>('Forecast');
export const outlineOutput = manifestType<Outline>('Outline');
export const verdictOutput = manifestType<{ approved: boolean; reason?: string }>('Verdict');
// The same name for the same type again is fine.
export const forecastAgain = manifestType<Forecast>('Forecast');
