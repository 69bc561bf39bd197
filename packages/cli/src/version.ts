import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The version of `@toolsmith/cli`, read from its package.json (one level above both `src/` and `dist/`). */
export const CLI_VERSION: string = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
