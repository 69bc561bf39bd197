import { dirname, extname } from 'node:path';
import { typeScriptLoaderMissingMessage } from '../errors/messages';

/**
 * Makes `require` able to load `file` when it is TypeScript (`.ts`, `.mts`, `.cts`): registers ts-node
 * (transpile only, reading the module's tsconfig, keeping decorator metadata) unless something already
 * loads `.ts` (ts-node itself, jest). Used by `toolsmith mcp`, `web`, `api` and `run`. When ts-node is not
 * installed, throws what `missing` makes of the message and the cause, so each command keeps its own code.
 */
export function registerTypeScript(file: string, missing: (message: string, cause: unknown) => Error): void {
  if (!['.ts', '.mts', '.cts'].includes(extname(file))) return;
  if ((process as unknown as Record<symbol, unknown>)[Symbol.for('ts-node.register.instance')]) return;
  if (require.extensions['.ts']) return;
  try {
    const tsNode = require('ts-node') as { register(options: object): void };
    tsNode.register({ transpileOnly: true, projectSearchDir: dirname(file) });
  } catch (error) {
    throw missing(typeScriptLoaderMissingMessage(file), error);
  }
}
