import { dirname } from 'node:path';
import type { TransformerStorage } from '../validation/lazy-modules';

/** Where class-transformer keeps `@Type` metadata, relative to its package folder (CommonJS build). */
const STORAGE_FILE = /[\\/]class-transformer[\\/]cjs[\\/]storage\.js$/;

/**
 * The package folder of another loaded copy of class-transformer whose `@Type` store knows the
 * property, when core's own copy does not. class-transformer keeps that store in a module variable (not
 * on the global object as class-validator does), so a DTO decorated through a second copy (an app
 * installed with linked folders, two versions in node_modules) looks to core as if it had no `@Type`.
 * Only copies loaded through `require` are seen; that is how both the app and core load it.
 */
export function otherClassTransformerWithType(dto: Function, property: string): { core: string; other: string } | undefined {
  let own: string;
  try {
    own = require.resolve('class-transformer/cjs/storage');
  } catch {
    return undefined;
  }
  for (const file of Object.keys(require.cache)) {
    if (file === own || !STORAGE_FILE.test(file)) continue;
    const storage = (require.cache[file]?.exports as { defaultMetadataStorage?: Partial<TransformerStorage> } | undefined)?.defaultMetadataStorage;
    if (typeof storage?.findTypeMetadata === 'function' && storage.findTypeMetadata(dto, property) !== undefined) {
      return { core: packageFolder(own), other: packageFolder(file) };
    }
  }
  return undefined;
}

function packageFolder(storageFile: string): string {
  return dirname(dirname(storageFile));
}
