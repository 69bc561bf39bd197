import type { ParamMetadata } from '../decorators/param.decorator';
import type { JsonSchema } from '../model/json-schema';
import type { ManifestMethod } from './manifest-document';
import type { ManifestGap } from '../errors/messages';
import type { ToolManifest } from './manifest';
import { defaultManifest } from './manifest-registry';
import { annotate } from './schema-builder';

/** One parameter position as the manifest describes it, with the `@Param` options laid over it. */
export interface ManifestArgument {
  name: string;
  schema: JsonSchema;
  optional: boolean;
  /** Converts the validated JSON value to the declared type. */
  revive?: (value: unknown) => unknown;
}

const REVIVERS = { date: (value: unknown) => new Date(value as string) } as const;

/**
 * The manifest entry of a `@Tool` method, if the scanner should use one: the manifest given in the
 * scan options (`null`: none), else the process default (see `useManifest`). Applies the manifest's
 * stale and missing-method policies, so it may warn or throw `ManifestError`.
 */
export function manifestMethodFor(
  manifest: ToolManifest | null | undefined,
  className: string,
  methodName: string,
  cls?: Function,
): ManifestMethod | undefined {
  return manifestSourceOf(manifest)?.methodFor(className, methodName, cls);
}

/** The manifest the scanner reads: the one given in the scan options (`null`: none), else the process default. */
export function manifestSourceOf(manifest: ToolManifest | null | undefined): ToolManifest | undefined {
  return manifest === undefined ? defaultManifest() : (manifest ?? undefined);
}

/**
 * Why the manifest did not describe a `@Tool` method that has no decorator metadata, for the error: it has
 * no entry for the class, its entry for the class is stale, or it has none for the method.
 */
export function manifestMethodGap(manifest: ToolManifest, className: string, methodName: string): ManifestGap {
  const gap = !manifest.toolset(className) ? 'class' : manifest.sourceStatus(className) === 'stale' ? 'stale' : 'method';
  return { path: manifest.path, gap, className, methodName };
}

/**
 * The manifest's argument at a parameter position, or `undefined` when that position is not a manifest
 * parameter. `@Param` options stay explicit: its name, `description`, `default` and `optional` win.
 */
export function manifestArgumentAt(method: ManifestMethod, index: number, param: ParamMetadata | undefined): ManifestArgument | undefined {
  const entry = method.parameters.find((parameter) => parameter.index === index);
  if (!entry) return undefined;
  return {
    name: param?.name ?? entry.name,
    schema: param ? annotate(entry.schema, param) : entry.schema,
    optional: entry.optional || param?.options.optional === true || param?.options.default !== undefined,
    ...(entry.revive ? { revive: REVIVERS[entry.revive] } : {}),
  };
}

/** How many parameter positions the manifest knows of (the context parameter included). */
export function manifestParameterCount(method: ManifestMethod): number {
  return Math.max(0, ...method.parameters.map((parameter) => parameter.index + 1), method.contextIndex === undefined ? 0 : method.contextIndex + 1);
}
