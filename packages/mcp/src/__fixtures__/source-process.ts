import { join } from 'node:path';

/** `node` arguments that run a TypeScript fixture of this directory from source (see register-source.js). */
export function sourceProcessArgs(fixture: string): string[] {
  return ['-r', join(__dirname, 'register-source.js'), join(__dirname, fixture)];
}
