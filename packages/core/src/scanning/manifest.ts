import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ManifestError } from '../errors/manifest-errors';
import { manifestTypeMissingMessage, manifestTypeStaleMessage } from '../errors/messages';
import type { JsonSchema } from '../model/json-schema';
import { metaSchemaProblems } from '../validation/meta-schema-check';
import { manifestProblems } from './manifest-check';
import { type ManifestDocument, type ManifestMethod, type ManifestSource, type ManifestToolset, manifestParametersSchema } from './manifest-document';
import { hashSource } from './manifest-hash';
import { manifestMismatch } from './manifest-identity';

/** What to do when a manifest entry cannot be trusted: report it and fall back, or stop startup. */
export type ManifestProblemPolicy = 'warn' | 'error';

/** Options of {@link loadManifest}. */
export interface ManifestOptions {
  /**
   * A toolset whose source changed since the manifest was generated: `'warn'` (default) reports it and
   * ignores that toolset's entries (the scanner falls back to reflection); `'error'` throws
   * `MANIFEST_STALE`. A `manifestType` whose source changed has nothing to fall back to: `'warn'`
   * reports it and uses the recorded schema, `'error'` throws.
   */
  onStale?: ManifestProblemPolicy;
  /**
   * A `@Tool` method of a class the manifest knows, but missing from it: `'warn'` (default) reports it
   * and falls back to reflection; `'error'` throws `MANIFEST_METHOD_MISSING`.
   */
  onMissingMethod?: ManifestProblemPolicy;
  /** Where warnings go; defaults to `console.warn`. */
  warn?: (message: string) => void;
}

/** Whether a toolset's source still matches the manifest. */
export type ManifestSourceStatus =
  /** The source file was found and its hash matches. */
  | 'fresh'
  /** The source file was found and changed. */
  | 'stale'
  /** The source is not there (a deployment without sources): nothing to compare; `toolsmith schema --check` guards CI. */
  | 'unavailable';

/**
 * A loaded build-time schema manifest. The scanner asks it for a method's schemas with
 * {@link ToolManifest.methodFor}, which applies the stale and missing-method policies.
 *
 * Hashes are checked against the TypeScript source, found through the `source` path relative to the
 * manifest file. When the source is not deployed next to the compiled code, the check is skipped:
 * run `toolsmith schema --check` in CI to catch a stale manifest before it ships.
 */
export class ToolManifest {
  private readonly statuses = new Map<string, ManifestSourceStatus>();
  // By absolute path: a file many entries were built from (a shared types file) is read and hashed once.
  private readonly files = new Map<string, ManifestSourceStatus>();
  private readonly reported = new Set<string>();
  private readonly checked = new WeakSet<object>();
  // Per class: why it is not the class its name's entry describes ('' when it is).
  private readonly mismatches = new WeakMap<Function, string>();
  private readonly options: Required<ManifestOptions>;

  /** @internal The manifest's content (its format is internal to Toolsmith). */
  readonly document: ManifestDocument;
  /** Absolute path of the manifest file; sources are resolved relative to its directory. */
  readonly path: string;

  /** @internal Made by {@link loadManifest}. */
  constructor(document: ManifestDocument, path: string, options: ManifestOptions = {}) {
    this.document = document;
    this.path = path;
    this.options = {
      onStale: options.onStale ?? 'warn',
      onMissingMethod: options.onMissingMethod ?? 'warn',
      warn: options.warn ?? ((message) => console.warn(message)),
    };
  }

  /** @internal The manifest's entry for a class, or `undefined` when the class is not in it. */
  toolset(className: string): ManifestToolset | undefined {
    return Object.prototype.hasOwnProperty.call(this.document.toolsets, className)
      ? this.document.toolsets[className]
      : undefined;
  }

  /**
   * Compares the recorded hashes of the toolset's files (its source, its base classes', and those of the
   * types its schemas were built from) with the files (once per class; cached).
   */
  sourceStatus(className: string): ManifestSourceStatus | undefined {
    const toolset = this.toolset(className);
    if (!toolset) return undefined;
    let status = this.statuses.get(className);
    if (!status) {
      status = this.entryStatus([toolset, ...(toolset.bases ?? []), ...(toolset.dependencies ?? [])]);
      this.statuses.set(className, status);
    }
    return status;
  }

  /**
   * Stale if any file present has changed, or if one recorded is gone while others are there (a file
   * deleted or renamed since); unavailable only when none of them is deployed.
   */
  private entryStatus(files: readonly ManifestSource[]): ManifestSourceStatus {
    const statuses = files.map((entry) => this.fileStatus(entry));
    if (statuses.includes('stale')) return 'stale';
    if (!statuses.includes('fresh')) return 'unavailable';
    return statuses.includes('unavailable') ? 'stale' : 'fresh';
  }

  /** The recorded paths of the files that changed (or are gone while others are there), for messages. */
  private changedFiles(files: readonly ManifestSource[]): string {
    const statuses = files.map((entry) => this.fileStatus(entry));
    const deployed = statuses.some((status) => status !== 'unavailable');
    return files
      .flatMap((entry, index) =>
        statuses[index] === 'stale' ? [entry.source] : statuses[index] === 'unavailable' && deployed ? [`${entry.source}: no longer there`] : [],
      )
      .join(', ');
  }

  /** @internal
   * The schema `toolsmith schema` wrote for `manifestType<T>(typeName)`. Throws `MANIFEST_TYPE_MISSING`
   * when the manifest has no such type; a changed source is reported (or thrown) by the stale policy.
   */
  typeSchema(typeName: string): JsonSchema {
    const types = this.document.types ?? {};
    if (!Object.prototype.hasOwnProperty.call(types, typeName)) {
      throw new ManifestError('MANIFEST_TYPE_MISSING', manifestTypeMissingMessage(typeName, this.path), this.path, { details: { typeName } });
    }
    const type = types[typeName];
    const files = [type, ...(type.dependencies ?? [])];
    if (this.entryStatus(files) === 'stale') {
      this.report(this.options.onStale, 'MANIFEST_STALE', `type ${typeName}`, manifestTypeStaleMessage(typeName, this.path, this.changedFiles(files)));
    }
    this.checkSchema(type, type.schema, `type ${typeName}`);
    return type.schema;
  }

  private fileStatus(entry: ManifestSource): ManifestSourceStatus {
    const sourcePath = resolve(dirname(this.path), entry.source);
    const key = `${sourcePath}\0${entry.sourceHash}`;
    let status = this.files.get(key);
    if (!status) {
      status = !existsSync(sourcePath) ? 'unavailable' : hashSource(readFileSync(sourcePath, 'utf8')) === entry.sourceHash ? 'fresh' : 'stale';
      this.files.set(key, status);
    }
    return status;
  }

  /** @internal
   * The manifest's schemas for one `@Tool` method, or `undefined` when reflection must be used instead:
   * the class is not in the manifest (silently: it may come from a library), its source is stale, the
   * class given is not the one the entry describes (another class of that name, or one changed since:
   * see {@link manifestMismatch}), or the method is missing (reported, or thrown, by the options' policies).
   */
  methodFor(className: string, methodName: string, cls?: Function): ManifestMethod | undefined {
    const toolset = this.toolset(className);
    if (!toolset) return undefined;
    if (cls) {
      let mismatch = this.mismatches.get(cls);
      if (mismatch === undefined) {
        mismatch = manifestMismatch(cls, toolset) ?? '';
        this.mismatches.set(cls, mismatch);
      }
      if (mismatch) {
        this.report(
          this.options.onStale,
          'MANIFEST_STALE',
          className,
          `${this.path}: the class ${className} scanned is not the one the manifest describes under that name (${mismatch}): ` +
            `another class has the same name (a library's toolset?), or the class changed since the manifest was generated. ` +
            `Its schemas are not used (reflection takes over). Rename one of the two classes, or run \`toolsmith schema\` again.`,
        );
        return undefined;
      }
    }
    if (this.sourceStatus(className) === 'stale') {
      this.report(
        this.options.onStale,
        'MANIFEST_STALE',
        className,
        `${this.path}: the source of toolset ${className} (${this.changedFiles([toolset, ...(toolset.bases ?? []), ...(toolset.dependencies ?? [])])}) ` +
          `changed since the manifest was generated, so its schemas are not used. Run \`toolsmith schema\` again.`,
      );
      return undefined;
    }
    if (!Object.prototype.hasOwnProperty.call(toolset.methods, methodName)) {
      this.report(
        this.options.onMissingMethod,
        'MANIFEST_METHOD_MISSING',
        `${className}.${methodName}`,
        `${this.path}: toolset ${className} has no entry for the @Tool method ${methodName}, so its schema comes ` +
          `from reflection. Run \`toolsmith schema\` again.`,
      );
      return undefined;
    }
    const method = toolset.methods[methodName];
    this.checkSchema(method, manifestParametersSchema(method), `the parameters schema of ${className}.${methodName}`);
    if (method.outputSchema !== undefined) this.checkSchema(method.outputSchema, method.outputSchema, `the output schema of ${className}.${methodName}`);
    return method;
  }

  /**
   * A schema of the manifest is checked when it is first used, as explicit schemas are at startup, so a
   * broken one (hand-edited, or written by an older generator) stops startup instead of failing every call.
   */
  private checkSchema(entry: object, schema: JsonSchema, subject: string): void {
    if (this.checked.has(entry)) return;
    const problems = metaSchemaProblems(schema);
    if (problems) {
      throw new ManifestError(
        'MANIFEST_INVALID',
        `${this.path}: ${subject} is not a usable JSON Schema (${problems}). Run \`toolsmith schema\` again; ` +
          'a manifest edited by hand or written by an older @toolsmith/cli can hold such a schema.',
        this.path,
        { details: { subject, problems } },
      );
    }
    this.checked.add(entry);
  }

  private report(policy: ManifestProblemPolicy, code: 'MANIFEST_STALE' | 'MANIFEST_METHOD_MISSING', key: string, message: string): void {
    if (policy === 'error') throw new ManifestError(code, message, this.path);
    // One warning per class or method, however many times the scanner asks.
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.options.warn(`[toolsmith] ${message}`);
  }
}

/**
 * Reads and checks a `toolsmith.schema.json` written by `toolsmith schema`. Throws a
 * {@link ManifestError} (`MANIFEST_INVALID`) naming the file when it is missing, not JSON, or not a
 * manifest this version reads.
 */
export function loadManifest(path: string, options: ManifestOptions = {}): ToolManifest {
  const absolutePath = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolutePath, 'utf8');
  } catch (cause) {
    throw new ManifestError('MANIFEST_INVALID', `Cannot read the manifest ${absolutePath}: ${(cause as Error).message}.`, absolutePath, {
      cause,
    });
  }
  return new ToolManifest(parseManifest(text, absolutePath), absolutePath, options);
}

/** Parses and checks a manifest's JSON text; `path` is only used in messages. */
export function parseManifest(text: string, path: string): ManifestDocument {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    throw new ManifestError('MANIFEST_INVALID', `The manifest ${path} is not valid JSON: ${(cause as Error).message}.`, path, {
      cause,
    });
  }
  const problems = manifestProblems(document);
  if (problems.length > 0) {
    throw new ManifestError(
      'MANIFEST_INVALID',
      `The manifest ${path} is not a Toolsmith schema manifest (version 1): ${problems.join('; ')}. ` +
        'Generate it with `toolsmith schema`.',
      path,
      { details: { problems } },
    );
  }
  return document as ManifestDocument;
}
