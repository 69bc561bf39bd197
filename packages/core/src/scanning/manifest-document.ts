import type { JsonSchema } from '../model/json-schema';

/** The manifest format this version of Toolsmith writes and reads. */
export const MANIFEST_VERSION = 1;

/** The manifest's usual file name; startup looks for it next to the compiled code. */
export const MANIFEST_FILE_NAME = 'toolsmith.schema.json';

/**
 * The content of a `toolsmith.schema.json` file, written by `toolsmith schema` from TypeScript types and
 * JSDoc. Keyed by `@Toolset` class name, then by `@Tool` method name.
 */
export interface ManifestDocument {
  /** Format version; see {@link MANIFEST_VERSION}. */
  version: typeof MANIFEST_VERSION;
  /** What wrote the file, e.g. `@toolsmith/cli 0.1.0`. Informational. */
  generator: string;
  /** One entry per `@Toolset` class, by class name. */
  toolsets: Record<string, ManifestToolset>;
  /** Types named in the sources with `manifestType<T>('Name')`, by name; absent when there are none. */
  types?: Record<string, ManifestType>;
}

/** A TypeScript source file a manifest entry was generated from, and its hash. */
export interface ManifestSource {
  /** Path relative to the manifest's directory, with `/` separators. */
  source: string;
  /** `sha256:<hex>` of the file's text (line endings normalized to `\n`); see {@link hashSource}. */
  sourceHash: string;
}

/**
 * The other project files (outside `node_modules`) whose declarations an entry's schemas were built
 * from: imported types, their members and JSDoc, through any number of files. Checked for staleness
 * like `source`, so a changed imported type makes the entry stale.
 */
export interface ManifestDependencies {
  /** Absent when the schemas use no declaration outside the entry's own files. */
  dependencies?: ManifestSource[];
}

/** What the manifest knows about one `@Toolset` class. */
export interface ManifestToolset extends ManifestSource, ManifestDependencies {
  /** Files of base classes whose `@Tool` methods the class inherits; checked for staleness like `source`. */
  bases?: ManifestSource[];
  /** One entry per `@Tool` method, by method name. */
  methods: Record<string, ManifestMethod>;
}

/**
 * The schema of a type named with `manifestType<T>('Name')`. `source` is the file that declares the
 * type (the file of the call, for a type written inline); its hash is checked like a toolset's.
 */
export interface ManifestType extends ManifestSource, ManifestDependencies {
  /** JSON Schema of the type, its recursive definitions under `$defs`. */
  schema: JsonSchema;
}

/** What the manifest knows about one `@Tool` method. */
export interface ManifestMethod {
  /** The JSDoc summary of the method; used when `@Tool` gives no description. */
  description?: string;
  /** The tool's parameters in declaration order, the `ToolContext` parameter left out. */
  parameters: ManifestParameter[];
  /** Position of the `ToolContext` parameter in the method's signature; absent when there is none. */
  contextIndex?: number;
  /**
   * The compiled method's `Function.length` (parameters before the first with a default or a rest), as
   * the project's tsconfig compiles it; with `parameterCount` and the names, how startup tells the class
   * described from another of the same name. Absent in manifests written before it was recorded.
   */
  length?: number;
  /** How many parameters the method declares (the context and DTO parameters included). */
  parameterCount?: number;
  /** Schema of the (awaited) return type; absent for `void`, `any` and `unknown`. */
  outputSchema?: JsonSchema;
  /** Recursive types the parameter schemas point to with `{ "$ref": "#/$defs/<name>" }`. */
  $defs?: Record<string, JsonSchema>;
}

/** One parameter of a `@Tool` method. */
export interface ManifestParameter {
  /** The argument's name in the tool's parameters object (the TypeScript name, or `@Param('name')`). */
  name: string;
  /** Position in the method's signature (counting the `ToolContext` parameter). */
  index: number;
  /** JSON Schema of the value, description included. */
  schema: JsonSchema;
  /** The parameter has `?` or a default value. */
  optional: boolean;
  /** From the method's `@param` JSDoc tag. */
  description?: string;
  /**
   * The parameter is declared `Date`: the model sends an ISO 8601 string (`format: date-time`) and the
   * method receives a `Date`. (`Date`s nested in objects stay strings: JSON has no dates.)
   */
  revive?: 'date';
}

/**
 * The parameters object schema of a manifest method: one property per parameter, the required ones
 * listed, no other properties allowed, recursive definitions attached. The same shape reflection
 * builds from `@Param`.
 */
export function manifestParametersSchema(method: ManifestMethod): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const parameter of method.parameters) {
    properties[parameter.name] = parameter.schema;
    if (!parameter.optional) required.push(parameter.name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  if (method.$defs && Object.keys(method.$defs).length > 0) schema.$defs = method.$defs;
  return schema;
}
