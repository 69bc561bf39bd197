import { ToolsmithError, type ToolsmithErrorOptions } from './toolsmith-error';

/** Stable codes of {@link ManifestError}. */
export type ManifestErrorCode =
  /** `useManifest` was called after a class had been scanned with the previous manifest, whose schemas it keeps. */
  | 'MANIFEST_SET_AFTER_SCAN'
  /**
   * The file is missing, not JSON, or not a manifest of a version this package reads; or a schema in it
   * is not valid JSON Schema (found when the scanner or `manifestType` first uses it).
   */
  | 'MANIFEST_INVALID'
  /** The source a toolset or type was generated from changed since `toolsmith schema` last ran. */
  | 'MANIFEST_STALE'
  /** A `manifestType<T>('Name')` names a type the manifest does not have, or there is no manifest. */
  | 'MANIFEST_TYPE_MISSING'
  /** The manifest knows the class but not this `@Tool` method. */
  | 'MANIFEST_METHOD_MISSING';

/**
 * A build-time schema manifest (`toolsmith.schema.json`) cannot be used. The message names the file,
 * the class or method, and the fix (usually: run `toolsmith schema` again).
 */
export class ManifestError extends ToolsmithError {
  constructor(
    code: ManifestErrorCode,
    message: string,
    /** Absolute path of the manifest file. */
    readonly manifestPath: string,
    options: ToolsmithErrorOptions = {},
  ) {
    super(code, message, options);
  }
}
