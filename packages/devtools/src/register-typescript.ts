import { dirname } from 'node:path';
import { AgentModuleError } from './agent-module-error';

/**
 * Makes `require` load a TypeScript module, with decorator metadata (ts-node, transpile only, reading
 * the module's tsconfig). `toolsmith mcp` does the same in @toolsmith/mcp's module loader, which keeps
 * it private; both can share one helper once it has a home in core/internal.
 */
export function registerTypeScript(file: string): void {
  // Already loadable: ts-node registered (it marks the process), or jest/another loader handles .ts.
  if ((process as unknown as Record<symbol, unknown>)[Symbol.for('ts-node.register.instance')]) return;
   
  if (require.extensions['.ts']) return;
  try {
     
    const tsNode = require('ts-node') as { register(options: object): void };
    tsNode.register({ transpileOnly: true, projectSearchDir: dirname(file) });
  } catch (error) {
    throw new AgentModuleError(
      'AGENT_MODULE_LOAD_FAILED',
      `${file} is TypeScript, and ts-node is not installed to load it. Compile it first and pass the .js file, or install ts-node.`,
      error,
    );
  }
}
