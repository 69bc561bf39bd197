import { join } from 'node:path';

/** The esbuild preload that runs TypeScript sources in a child process (@toolsmith/postgres's test fixture, shared). */
export const registerSource = join(__dirname, '..', '..', '..', 'postgres', 'src', '__fixtures__', 'register-esbuild.js');

/** `node` arguments that run a TypeScript fixture of this directory from source (see {@link registerSource}). */
export function sourceProcessArgs(fixture: string): string[] {
  return ['-r', registerSource, join(__dirname, fixture)];
}
