import type { ToolManifest } from './manifest';

// A registry symbol, not a class: two copies of core in one app must still recognise each other's references.
const MANIFEST_TYPE = Symbol.for('toolsmith.manifestType');

/**
 * A TypeScript type whose JSON Schema is read from the build-time manifest: `toolsmith schema` finds
 * each `manifestType<T>('Name')` call and writes the schema of `T` into the manifest under `Name`.
 * Made by {@link manifestType}; `T` exists only for the compiler.
 */
export interface ManifestTypeRef<T = unknown> {
  /** The key of the type in the manifest's `types` section (the call's string literal). */
  readonly typeName: string;
  /** The manifest to read; absent: the default one (see `useManifest`). */
  readonly manifest?: ToolManifest;
  /** Never set: carries `T` so that `new LlmAgent({ outputSchema: manifestType<T>(…) })` is typed `T`. */
  readonly __type?: T;
}

/** Options of {@link manifestType}. */
export interface ManifestTypeOptions {
  /** Read the type from this manifest instead of the default one. */
  manifest?: ToolManifest;
}

/**
 * Refers to the TypeScript type `T` by the name its schema has in the build-time manifest, so that
 * an agent's `outputSchema` can be a plain interface, as a tool's parameters can. Write the type
 * argument and a string literal: `toolsmith schema` reads both from the source. The schema is looked
 * up when the Runner is built; a manifest without it throws `MANIFEST_TYPE_MISSING`.
 *
 * @example
 * ```ts
 * interface Forecast { city: string; celsius: number; sky: 'clear' | 'cloudy' | 'rain' }
 *
 * const agent = new LlmAgent({ name: 'forecaster', model, outputSchema: manifestType<Forecast>('Forecast') });
 * // agent.outputOf(event) is a Forecast | undefined
 * ```
 */
export function manifestType<T>(typeName: string, options: ManifestTypeOptions = {}): ManifestTypeRef<T> {
  // The mark is not part of the type: only this function makes references the runtime accepts.
  const reference = { typeName, [MANIFEST_TYPE]: true as const };
  return options.manifest ? { ...reference, manifest: options.manifest } : reference;
}

/** Whether `value` was made by {@link manifestType} (by this copy of core or another). */
export function isManifestTypeRef(value: unknown): value is ManifestTypeRef {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MANIFEST_TYPE] === true;
}
