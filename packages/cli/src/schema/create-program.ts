import { dirname } from 'node:path';
import * as ts from 'typescript';
import { ProjectLoadError } from '../cli-errors';
import type { Progress } from '../progress';

/**
 * Loads a tsconfig and builds its TypeScript program (the input typescript-json-schema's generator
 * works on), counting files as the compiler reads them so a large project shows progress.
 */
export function createProgram(tsconfigPath: string, progress: Progress): ts.Program {
  const diagnostics: ts.Diagnostic[] = [];
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
  };
  const config = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, host);
  const problems = [...diagnostics, ...(config?.errors ?? [])].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (!config || problems.length > 0) {
    throw new ProjectLoadError(
      `Cannot load ${tsconfigPath}: ${problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')).join('; ') || 'unknown error'}. ` +
        'Pass the project with --project <tsconfig.json>.',
    );
  }
  if (config.fileNames.length === 0) {
    throw new ProjectLoadError(`${tsconfigPath} includes no source files; check its "include" and "files".`);
  }
  const compilerHost = ts.createCompilerHost(config.options, true);
  const getSourceFile = compilerHost.getSourceFile.bind(compilerHost);
  let read = 0;
  compilerHost.getSourceFile = (...args) => {
    read += 1;
    progress.tick(`${read} files read`);
    return getSourceFile(...args);
  };
  progress.step(`Building the TypeScript program of ${tsconfigPath} (${config.fileNames.length} source files)`);
  const program = ts.createProgram({
    rootNames: config.fileNames,
    // Only types are needed: no output, and a project that does not type-check still yields schemas.
    options: { ...config.options, noEmit: true },
    host: compilerHost,
    projectReferences: config.projectReferences,
  });
  // Binding and checking happen lazily; touching the checker here keeps that cost inside this step.
  program.getTypeChecker();
  progress.done(`${read} files read from ${dirname(tsconfigPath)}`);
  return program;
}
