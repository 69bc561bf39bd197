import type { JsonSchema, ToolDefinition } from '@toolsmith/core';
import type { ManifestDocument } from '@toolsmith/core/internal';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as ts from 'typescript';
import { dtoClassName } from './dto-parameters';
import type { FoundToolset } from './find-toolsets';
import { thrownMessage } from '@toolsmith/core';

/** What `--print` shows for a tool whose arguments are a class-validator DTO. */
export type DtoToolSchema =
  | { readonly dtoClass: string; readonly parameters: JsonSchema }
  /** The schema could not be read; `reason` says why and what to do. */
  | { readonly dtoClass: string; readonly reason: string };

/** What is used of the app's own `@toolsmith/core` (loaded from the app, so typed here by shape). */
interface AppCore {
  scanTools(target: Function, options: { manifest: unknown }): readonly ToolDefinition[];
  ToolManifest: new (document: ManifestDocument, path: string) => unknown;
}

/**
 * The schemas the model gets for the DTO tools of the given toolsets, keyed `Class.method`. A DTO's
 * schema is built from its class-validator rules when the app starts, so it is read the same way: the
 * compiled file of the toolset (the tsconfig's output for its source) is loaded and scanned by the app's
 * own `@toolsmith/core` (resolved from that file, so its copy of class-validator holds the rules), with
 * the manifest just generated (`manifestPath`: where it is or would be written) for the other tools.
 */
export function compiledDtoSchemas(
  program: ts.Program,
  toolsets: readonly FoundToolset[],
  manifest: { document: ManifestDocument; path: string },
): Map<string, DtoToolSchema> {
  const checker = program.getTypeChecker();
  const found = new Map<string, DtoToolSchema>();
  for (const toolset of toolsets) {
    const dtoTools = new Map<string, string>();
    for (const tool of toolset.tools) {
      for (const parameter of tool.declaration.parameters) {
        const dtoClass = dtoClassName(checker, parameter);
        if (dtoClass !== undefined) dtoTools.set(tool.methodName, dtoClass);
      }
    }
    if (dtoTools.size === 0) continue;
    const scanned = scanCompiled(program, toolset, manifest);
    for (const [methodName, dtoClass] of dtoTools) {
      const key = `${toolset.className}.${methodName}`;
      if ('reason' in scanned) found.set(key, { dtoClass, reason: scanned.reason });
      else {
        const parameters = scanned.byMethod.get(methodName);
        found.set(key, parameters ? { dtoClass, parameters } : { dtoClass, reason: `the compiled class has no @Tool method ${methodName}: rebuild the project` });
      }
    }
  }
  return found;
}

function scanCompiled(program: ts.Program, toolset: FoundToolset, manifest: { document: ManifestDocument; path: string }): { byMethod: Map<string, JsonSchema> } | { reason: string } {
  const parsed: ts.ParsedCommandLine = { options: program.getCompilerOptions(), fileNames: [...program.getRootFileNames()], errors: [] };
  const output = ts
    .getOutputFileNames(parsed, toolset.sourceFile.fileName, !ts.sys.useCaseSensitiveFileNames)
    .find((file) => /\.[cm]?js$/.test(file));
  if (output === undefined || !existsSync(output)) {
    return { reason: `build the project first (${output ?? 'no output file'} does not exist): a DTO's schema comes from its compiled class-validator rules` };
  }
  try {
    const load = createRequire(output);
    const exported = (load(output) as Record<string, unknown>)[toolset.className];
    if (typeof exported !== 'function') return { reason: `${output} does not export ${toolset.className}` };
    const core = load('@toolsmith/core') as AppCore;
    const definitions = core.scanTools(exported, { manifest: new core.ToolManifest(manifest.document, manifest.path) });
    return { byMethod: new Map(definitions.map((definition) => [definition.methodName, definition.parameters])) };
  } catch (thrown) {
    return { reason: `loading ${output} failed: ${thrownMessage(thrown)}` };
  }
}
