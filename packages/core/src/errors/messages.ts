/**
 * Every startup error message, written once. Each is a plain function of where the problem is
 * (class, method, parameter) and ends with the fix, so people can act on it without reading the source.
 */
import { endpointOf } from './endpoint-of';
import { thrownMessage } from './thrown-message';
import { redactSecretText } from '../redaction/secret-redaction';

/** Where a tool-definition problem was found. */
export interface DefinitionSite {
  /** The class the tools are defined on (`functionTool` for a function tool; the DTO class for an agent's output schema). */
  className: string;
  /** The tool's method (for `functionTool`, the tool's name); absent when the problem is with the class as a whole. */
  methodName?: string;
  /** Parameter position (0-based) and, when known, its `@Param` name. */
  parameterIndex?: number;
  /** The parameter's `@Param` name, when it has one. */
  parameterName?: string;
  /** DTO class and property, for problems inside a DTO. */
  dtoName?: string;
  /** The DTO property at fault, with `dtoName`; absent when the problem is with the DTO class as a whole. */
  propertyName?: string;
}

/** `WeatherTools.getWeather, parameter #1 "city"`, `RefundDto.amount`, … */
export function describeSite(site: DefinitionSite): string {
  let text = site.methodName ? `${site.className}.${site.methodName}` : site.className;
  if (site.parameterIndex !== undefined) {
    text += `, parameter #${site.parameterIndex + 1}${site.parameterName ? ` "${site.parameterName}"` : ''}`;
  }
  if (site.dtoName) text += `${site.parameterIndex !== undefined || site.methodName ? ', in ' : ': '}${site.dtoName}${site.propertyName ? `.${site.propertyName}` : ''}`;
  return text;
}

export function invalidToolNameMessage(site: DefinitionSite, name: string): string {
  return (
    `${describeSite(site)}: tool name "${name}" is invalid; names must match ^[a-zA-Z0-9_-]{1,64}$ ` +
    `(letters, digits, "_" and "-", at most 64 characters, prefix included). ` +
    `Fix: pass a valid name with @Tool({ name: '...' }) or shorten the @Toolset prefix.`
  );
}

export function reservedToolNameMessage(site: DefinitionSite, name: string): string {
  return (
    `${describeSite(site)}: tool name "${name}" is reserved for the runner's pause requests (toolsmith_request_confirmation, toolsmith_request_credential); ` +
    `a tool of that name would be taken for one. Fix: pass another name with @Tool({ name: '...' }) or change the @Toolset prefix.`
  );
}

export function duplicateToolNameMessage(site: DefinitionSite, name: string, firstMethod: string): string {
  return (
    `${describeSite(site)}: tool name "${name}" is already used by ${site.className}.${firstMethod}. ` +
    `Fix: give one of them another name with @Tool({ name: '...' }).`
  );
}

/**
 * What a loaded build-time manifest lacks for a `@Tool` method without decorator metadata, for
 * {@link missingTypeMetadataMessage}: an entry for the class, a fresh one (`stale`: the class's source changed
 * since it was generated), an entry for the method, or (`parameter`) the parameter itself, which the method's
 * entry leaves out (a class-validator DTO parameter: the manifest stores no schema for it).
 */
export interface ManifestGap {
  /** The manifest file that was loaded. */
  path: string;
  /** What it lacks (see above). */
  gap: 'class' | 'stale' | 'method' | 'parameter';
  /** The tools class. */
  className: string;
  /** The `@Tool` method. */
  methodName: string;
}

function manifestGapText({ path, gap, className, methodName }: ManifestGap): string {
  switch (gap) {
    case 'class':
      return `the manifest ${path} has no entry for class ${className}`;
    case 'stale':
      return `the manifest ${path} has an entry for class ${className}, but it is not used: the class's source changed since the manifest was generated`;
    case 'method':
      return `the manifest ${path} has an entry for class ${className}, but none for its method ${methodName}`;
    case 'parameter':
      return (
        `the manifest ${path} describes ${className}.${methodName} but not this parameter (the manifest stores no schema for a ` +
        `class-validator DTO parameter: the DTO's rules are read from its class at startup, which needs the parameter's type)`
      );
  }
}

export function missingTypeMetadataMessage(site: DefinitionSite, standardDecorators = false, manifest?: ManifestGap): string {
  if (standardDecorators) {
    return (
      `${describeSite(site)}: the method is compiled with standard decorators (no "experimentalDecorators"), which record no parameter ` +
      `types or names, and ${manifest ? manifestGapText(manifest) : 'no build-time manifest describes it'}. Fix: take one object argument described by a Standard Schema ` +
      'with @Tool({ input }), or generate the manifest with `toolsmith schema` and let the scanner find it (next to the compiled ' +
      'code, TOOLSMITH_MANIFEST or useManifest(path); see docs/decorator-pitfalls.md), or give the schema explicitly with @Tool({ inputSchema }).'
    );
  }
  const missing = `${describeSite(site)}: TypeScript emitted no parameter types (design:paramtypes is missing)`;
  if (manifest?.gap === 'parameter') {
    return (
      `${missing}, and ${manifestGapText(manifest)}. ` +
      `Fix: enable "emitDecoratorMetadata" and "experimentalDecorators" in tsconfig.json and compile with tsc or ts-jest ` +
      `(esbuild, tsx and vitest drop decorator metadata); or take @Param parameters instead of the DTO and run \`toolsmith schema\` again; ` +
      `or give the schema explicitly with @Tool({ inputSchema }).`
    );
  }
  return (
    `${missing}${manifest ? `, and ${manifestGapText(manifest)}` : ''}. ` +
    `Fix: enable "emitDecoratorMetadata" and "experimentalDecorators" in tsconfig.json, compile with tsc or ts-jest ` +
    `(esbuild, tsx and vitest drop decorator metadata; @toolsmith/core loads reflect-metadata itself); ` +
    `or generate a build-time manifest with \`toolsmith schema\` (then @Tool() alone is enough; see docs/schemas.md)${manifest ? ', run again so that it describes this method' : ''}; ` +
    `or give the schema explicitly with @Tool({ inputSchema }).`
  );
}

export function unknownParameterTypeMessage(site: DefinitionSite, typeName: string): string {
  return (
    `${describeSite(site)}: the parameter type cannot be known at runtime (TypeScript reports "${typeName}"; ` +
    `interfaces, unions, any, unknown, object types and parameters with a default but no type annotation all look like Object, ` +
    `and arrays carry no item type). ` +
    `Fix: give the schema with @Param(name, { schema: {...} }) or @Param(name, { enum: [...] }), ` +
    `use a class-validator DTO class, or generate a build-time manifest with \`toolsmith schema\`.`
  );
}

export function undecoratedParameterMessage(site: DefinitionSite, typeName: string): string {
  // A class imported with `import type` (`import { type ToolContext }`) is emitted as Function (tsc) or Object (one file at a time).
  const typeOnly =
    typeName === 'Function' || typeName === 'Object'
      ? `A ToolContext parameter whose class was imported with \`import type\` (or \`import { type ToolContext }\`) is emitted as ${typeName}: ` +
        `import it as a value (\`import { ToolContext }\`), or mark it with @Ctx(). `
      : '';
  return (
    `${describeSite(site)}: the ${typeName} parameter has no @Param decorator, and parameter names are not ` +
    `available at runtime. ${typeOnly}Fix: add @Param('name') to it, mark a ToolContext parameter with @Ctx(), ` +
    `or take a single class-validator DTO parameter instead. If this class is described by a build-time ` +
    `manifest (toolsmith schema), the manifest was not loaded or has no entry for this method: call ` +
    `useManifest(path) before the class is scanned, set TOOLSMITH_MANIFEST, or run \`toolsmith schema\` again.`
  );
}

export function mixedParameterStylesMessage(site: DefinitionSite): string {
  return (
    `${describeSite(site)}: a tool takes either @Param parameters or one DTO parameter, not both. ` +
    `Fix: move the @Param values into the DTO class, or replace the DTO with @Param parameters.`
  );
}

/** Why a Standard Schema cannot be used: its library has no JSON Schema converter; says what to do instead. */
export function standardSchemaWithoutJsonSchemaReason(vendor: string): string {
  return (
    `it is a "${vendor}" Standard Schema without a JSON Schema converter (the Standard JSON Schema interface, ~standard.jsonSchema), ` +
    'so the model cannot be told its shape; wrap a valibot schema with toStandardJsonSchema(schema) from @valibot/to-json-schema, ' +
    'use zod 4.2 or later (not zod/mini) or arktype, or give the JSON Schema itself'
  );
}

/** Why a Standard Schema cannot be used: its library's JSON Schema converter refused it. */
export function standardSchemaConversionFailedReason(vendor: string, reason: string): string {
  return `its library ("${vendor}") could not convert it to JSON Schema (${reason}); use only what JSON Schema can state in it, or give the JSON Schema itself`;
}

export function invalidConfirmationRuleMessage(site: DefinitionSite, value: string): string {
  return (
    `${describeSite(site)}: requireConfirmation is ${value}; it must be true (always ask), false (never) or a function ` +
    `of the validated arguments and the context that answers whether to ask. ` +
    `Fix: requireConfirmation: true, or requireConfirmation: (args) => args.amount > 100.`
  );
}

export function invalidInputSchemaMessage(site: DefinitionSite, reason: string): string {
  return (
    `${describeSite(site)}: the explicit schema is not usable: ${reason}. ` +
    `Fix: give a JSON Schema object with type "object" (for a whole tool) or any valid JSON Schema (for one @Param).`
  );
}

export function contextAsArgumentMessage(site: DefinitionSite): string {
  return (
    `${describeSite(site)}: the manifest makes this parameter, which is the ToolContext, an argument the model fills, ` +
    `so the tool would get the model's data as its context. Fix: run \`toolsmith schema\` again (it injects the ` +
    `context there), or type the parameter ToolContext or mark it @Ctx().`
  );
}

export function duplicateParameterNameMessage(site: DefinitionSite, name: string): string {
  return `${describeSite(site)}: two parameters are named "${name}". Fix: give each @Param a distinct name.`;
}

export function unsupportedDtoDecoratorMessage(site: DefinitionSite, decorator: string, reason: string): string {
  return (
    `${describeSite(site)}: @${decorator} cannot be expressed in JSON Schema (${reason}), so the model would not ` +
    `see the rule and ajv would not check it. Fix: add @UseClassValidator() to the DTO class so class-validator ` +
    `also runs after the schema check, or replace the decorator with one Toolsmith can express.`
  );
}

export function invalidDtoMessage(site: DefinitionSite, reason: string, fix: string): string {
  return `${describeSite(site)}: ${reason}. Fix: ${fix}.`;
}

export function duplicateClassTransformerMessage(site: DefinitionSite, coreCopy: string, otherCopy: string): string {
  return (
    `${describeSite(site)}: two copies of class-transformer are loaded. The DTO's @Type(() => NestedDto) was recorded ` +
    `by the copy at ${otherCopy}, but @toolsmith/core reads the one at ${coreCopy}, so the nested DTO cannot be ` +
    `converted or described (class-validator and reflect-metadata must be one copy too). Fix: install one copy — ` +
    `install Toolsmith from tarballs (npm pack), not from folders: \`npm install <clone>/packages/core\` links the folder, ` +
    `whose files load class-transformer from the clone's node_modules, outside your app (so \`npm ls class-transformer\` ` +
    `in your app, which lists only the app's own tree, shows one copy). class-transformer, class-validator and ` +
    `reflect-metadata are peer dependencies of @toolsmith/core: add them to your app's dependencies, and run \`npm dedupe\` ` +
    `when \`npm ls class-transformer\` shows two versions. Check that core and your app load one copy: in your app, ` +
    `\`node -p "require.resolve('class-transformer', { paths: [require.resolve('@toolsmith/core')] })"\` must print the ` +
    `path \`node -p "require.resolve('class-transformer')"\` prints.`
  );
}

export function contradictoryDtoRulesMessage(site: DefinitionSite, rules: string): string {
  return (
    `${describeSite(site)}: the decorators ${rules} contradict each other, so no value can ever be valid. ` +
    `Fix: remove the decorator that does not belong.`
  );
}

export function missingProviderMessage(chain: readonly string[]): string {
  const last = chain[chain.length - 1];
  return (
    `Cannot resolve ${last}: no provider is registered for it (dependency chain: ${chain.join(' -> ')}). ` +
    `Fix: add it to the providers, e.g. { provide: ${last}, useValue: ... } or useClass/useFactory.`
  );
}

export function dependencyCycleMessage(chain: readonly string[]): string {
  return (
    `Cannot resolve ${chain[0]}: its dependencies form a cycle (${chain.join(' -> ')}). ` +
    `Fix: break the cycle, e.g. inject a factory or move the shared part into its own provider.`
  );
}

/**
 * Why a constructor parameter's type cannot be injected: `undecorated` (the class has no `@Injectable()`,
 * so no types were emitted), `no-metadata` (legacy decorators compiled without `emitDecoratorMetadata`),
 * `standard` (standard decorators, which record no parameter types, and no `inject` list), `not-listed`
 * (the class's `inject` list is shorter than its constructor's parameters), `object` (an interface, type
 * alias or union, all emitted as `Object`, or a class imported with `import type` when each file is compiled
 * alone, as ts-jest's isolatedModules or swc do), `function` (a class imported with `import type` under tsc,
 * or a function type: emitted as `Function`), `primitive` (`string`, `number`, …),
 * `undefined` (the class was not yet defined: usually a circular import).
 */
export type UnknownDependencyReason = 'undecorated' | 'no-metadata' | 'standard' | 'not-listed' | 'object' | 'function' | 'primitive' | 'undefined';

export function unknownDependencyTypeMessage(chain: readonly string[], parameterIndex: number, reason: UnknownDependencyReason = 'object', typeName = 'Object'): string {
  const owner = chain[chain.length - 1];
  const parameter = `constructor parameter #${parameterIndex + 1}`;
  const where = `(dependency chain: ${chain.join(' -> ')})`;
  const byToken = `inject ${parameter} by token with @Inject(token) and a provider { provide: token, useValue/useClass/useFactory }`;
  const byList = `list ${owner}'s dependencies in constructor order: @Injectable({ inject: [...] }) (a tools class: @Toolset({ inject: [...] }))`;
  switch (reason) {
    case 'undecorated':
      return (
        `Cannot resolve ${owner}: it has no @Injectable(), so TypeScript emitted no types for its constructor parameters ${where}. ` +
        `Fix: decorate ${owner} with @Injectable() from @toolsmith/core (a tools class with @Toolset()), or ${byToken}; ` +
        `with standard decorators (no "experimentalDecorators"), ${byList}.`
      );
    case 'no-metadata':
      return (
        `Cannot resolve ${owner}: it is decorated, but its constructor parameters have no types at runtime: the code was compiled ` +
        `without "emitDecoratorMetadata" (esbuild, tsx and vitest never emit it) ${where}. ` +
        `Fix: ${byList}, or compile with "experimentalDecorators" and "emitDecoratorMetadata" set to true, or ${byToken}.`
      );
    case 'standard':
      return (
        `Cannot resolve ${owner}: it uses standard decorators (no "experimentalDecorators"), which record no constructor parameter ` +
        `types ${where}. Fix: ${byList}, or register ${owner} with a factory provider { provide: ${owner}, useFactory, inject: [...] }.`
      );
    case 'not-listed':
      return (
        `Cannot resolve ${owner}: ${parameter} is not in its inject list, and its constructor parameters have no types at runtime ${where}. ` +
        `Fix: list every constructor parameter's token, in order, in the inject option of @Injectable or @Toolset.`
      );
    case 'primitive':
      return (
        `Cannot resolve ${owner}: ${parameter} is a ${typeName}, a value the container cannot build by type ${where}. ` +
        `Fix: ${byToken}.`
      );
    case 'undefined':
      return (
        `Cannot resolve ${owner}: the type of ${parameter} was undefined when ${owner} was defined, usually because two files import ` +
        `each other ${where}. Fix: break the import cycle, or ${byToken}.`
      );
    case 'function':
      return (
        `Cannot resolve ${owner}: ${parameter} is typed with a class imported with \`import type\` (or a function type), ` +
        `which tsc emits as Function ${where}. ` +
        `Fix: import the class as a value (\`import { X }\`, not \`import type { X }\`), or ${byToken}.`
      );
    case 'object':
      return (
        `Cannot resolve ${owner}: ${parameter} is typed with an interface, a type alias, a union or a class imported with ` +
        `\`import type\`, which TypeScript all emits as Object ${where}. ` +
        `Fix: import a class as a value (\`import { X }\`, not \`import type { X }\`), or ${byToken}.`
      );
  }
}

export function providerFactoryFailedMessage(chain: readonly string[], reason: string): string {
  return (
    `Cannot resolve ${chain[chain.length - 1]}: its provider threw: ${reason} (dependency chain: ${chain.join(' -> ')}). ` +
    `Fix: check the provider's factory or constructor.`
  );
}

export function noToolsMessage(site: DefinitionSite): string {
  return `${describeSite(site)} has no @Tool methods. Fix: decorate the methods the model may call with @Tool(), or leave the class out of the agent's tools.`;
}

/** A provider refuses a tool's name (adapter kit's `ProviderToolNameError`). */
export function providerToolNameMessage(provider: string, toolName: string, rule: string): string {
  return (
    `Tool "${toolName}" cannot be sent to ${provider}: ${provider} requires function names to ${rule}. ` +
    `Fix: rename the tool (@Tool({ name: '...' }), the name of a functionTool or BaseTool, or a @Toolset or McpToolset prefix).`
  );
}

/** A tool, or the set of tools, exceeds one of a provider's documented limits (adapter kit's `ToolLimitError`). */
export function toolLimitMessage(provider: string, limit: string, max: number, actual: number, toolName: string | undefined, schemaPath: string, fix: string): string {
  const where = toolName === undefined ? 'The agent offers' : `Tool "${toolName}" has`;
  const at = toolName === undefined || !schemaPath ? '' : ` (at ${schemaPath})`;
  return `${where} ${actual} ${limit}${at}, more than ${provider} accepts (${max}). Fix: ${fix}`;
}

export function invalidCredentialAnswerMessage(requestId: string, problem: string): string {
  return `The answer to credential request "${requestId}" was refused: ${problem}. Nothing ran; answer the request again.`;
}

export function authStateMismatchMessage(requestId: string): string {
  return (
    `The answer to credential request "${requestId}" carries a "state" that is not the one of its authorization URL: ` +
    `it belongs to another authorization or was forged. Nothing ran and no code was exchanged. ` +
    `Fix: send the redirect URL the authorization server returned for this request's authUri.`
  );
}

export function tokenRequestFailedMessage(tokenUrl: string, grantType: string, status: number | undefined, oauthError: string | undefined, description?: string): string {
  const detail = oauthError ? ` (${oauthError}${description ? `: ${description}` : ''})` : description ? ` (${description})` : '';
  const what = status === undefined ? `could not be reached${detail}` : `answered ${status}${detail}`;
  return `The token endpoint ${endpointOf(tokenUrl)} ${what} to a "${grantType}" request.`;
}

export function responseTooLargeMessage(url: string, maxBytes: number): string {
  return `The answer of ${url} is larger than ${maxBytes} bytes, the limit for an authorization server's answers; it was not read further.`;
}

export function responseTimeoutMessage(url: string, timeoutMs: number): string {
  return `${url} did not answer within ${timeoutMs} ms, the deadline for a request to an authorization server (its answer read in full); the request was abandoned.`;
}

export function tokenEndpointUnavailableMessage(tokenUrl: string, status: number | undefined): string {
  const what = status === undefined ? 'could not be reached' : `answered ${status}`;
  return `The token endpoint ${endpointOf(tokenUrl)} ${what} while refreshing the credential; the credential is kept. Try the call again later.`;
}

export function authorizationExpiredMessage(ttlMs: number): string {
  return `The sign-in took longer than ${Math.round(ttlMs / 60_000)} minutes (or its state is unknown); no code was exchanged. Sign in again with the new request.`;
}

export function credentialDecryptFailedMessage(what: string): string {
  return (
    `The stored ${what} could not be decrypted: the encryptionKey differs from the one it was written with, or the row was changed. ` +
    'Toolsmith deletes an unreadable credential and asks the user again; to keep the others readable, pass the original key.'
  );
}

export function authConfigInvalidMessage(problem: string, fix?: string): string {
  if (fix) return `The auth config is invalid: ${problem}. Fix: ${fix}.`;
  return `The auth config is incomplete: ${problem}. Fix: give the OAuth2 client's clientId and tokenUrl (and authorizationUrl for the authorization code flow).`;
}

export function credentialSaveFailedMessage(authConfigId: string, reason: string, requestId: string | undefined): string {
  const what = requestId === undefined ? `The tokens for "${authConfigId}" could not be saved` : `The credential answering request "${requestId}" could not be saved for "${authConfigId}"`;
  const next = requestId === undefined ? 'Nothing was stored; the user is asked again.' : 'Nothing of the answer was stored and the request is still pending: send the same answer again.';
  return `${what}: the credential service failed (${reason}). ${next}`;
}

export function credentialServiceMissingMessage(method: string): string {
  return (
    `No credentialService was given, so ${method} cannot run. ` +
    `Fix: pass \`credentialService\` (e.g. new InMemoryCredentialService()) in the Runner options.`
  );
}

export function manifestSetAfterScanMessage(): string {
  return (
    'useManifest() was called after a class had already been scanned with the previous manifest; those classes ' +
    'keep the schemas they were scanned with, so the new manifest would be silently ignored for them. ' +
    'Fix: call useManifest() once at startup, before the first Runner, createClassTools or scanTools call ' +
    '(or pass { manifest } to scanTools/createClassTools for a one-off scan).'
  );
}

export function outputInvalidMessage(agentName: string, problems: readonly string[]): string {
  return (
    `The answer of agent "${agentName}" does not match its output schema: ${listProblems(problems)}. ` +
    'Reply again with only a JSON value that matches the schema.'
  );
}

export function invalidOutputSchemaMessage(agentName: string, reason: string): string {
  return (
    `Agent "${agentName}": outputSchema is invalid (${reason}). ` +
    "Fix: pass a class-validator DTO class, a JSON Schema object (draft 2020-12) or manifestType<T>('Name') of an object type."
  );
}

/** `manifestType<T>(typeName)` was asked of a manifest that does not have it. */
export function manifestTypeMissingMessage(typeName: string, manifestPath: string): string {
  return (
    `${manifestPath}: there is no type "${typeName}" in the manifest. ` +
    `Fix: run \`toolsmith schema\` again; it writes a type for each manifestType<T>('${typeName}') call it finds in the project's sources ` +
    '(the type argument and a string literal must be written at the call).'
  );
}

/** `manifestType<T>(typeName)` with no manifest to read it from. */
export function noManifestForTypeMessage(typeName: string): string {
  return (
    `manifestType('${typeName}') needs the build-time manifest, and none was found (none set with useManifest, ` +
    'none named by TOOLSMITH_MANIFEST, no toolsmith.schema.json beside the entry script or in its parents up to package.json). ' +
    'Fix: run `toolsmith schema` and ship toolsmith.schema.json with the code, call useManifest(path) at startup, ' +
    "or pass manifestType<T>('Name', { manifest })."
  );
}

/** The source of a manifest type changed since the manifest was written. */
export function manifestTypeStaleMessage(typeName: string, manifestPath: string, changed: string): string {
  return (
    `${manifestPath}: the source of type ${typeName} (${changed}) changed since the manifest was generated; its recorded ` +
    'schema is used, and it may no longer match the type. Run `toolsmith schema` again.'
  );
}

/** A parameter decorator (`@Param`, `@Ctx`) on a constructor parameter instead of a `@Tool` method's. */
export function decoratorOnConstructorMessage(decorator: string): string {
  return `${decorator} is on a constructor parameter; it belongs on a @Tool method's parameter.`;
}

/** A standard (TC39) method decorator on something other than an instance method. */
export function decoratorNotOnMethodMessage(decorator: string, context: DecoratorContext): string {
  const what =
    context.kind === 'class' ? `the class ${String(context.name)}`
    : context.kind === 'method' ? `the ${context.static ? 'static ' : ''}${context.private ? 'private ' : ''}method ${String(context.name)}`
    : `the ${context.kind} ${String(context.name)}`;
  return `${decorator} is on ${what}; it belongs on a public instance method of the class (the model calls tools on the instance).`;
}

/** A standard (TC39) decorator got no `context.metadata`: the compiler does not implement decorator metadata. */
export function standardDecoratorWithoutMetadataMessage(decorator: string, member: string): string {
  return (
    `${decorator} on ${member} got no context.metadata from the compiler, so the tool cannot be recorded. ` +
    'Fix: compile with TypeScript 5.2 or later or esbuild 0.21 or later (tsx, vitest with the esbuild plugin of docs/decorator-pitfalls.md), ' +
    'or switch to legacy decorators ("experimentalDecorators": true).'
  );
}

/** What replaces each legacy-only decorator with standard decorators. */
const STANDARD_MODE_INSTEAD = {
  param:
    'take one object argument described by a Standard Schema with @Tool({ input }), ' +
    'or type the parameter in TypeScript and generate the build-time manifest with `toolsmith schema` (JSDoc gives descriptions), ' +
    'or give the whole schema with @Tool({ inputSchema })',
  ctx: 'type the parameter ToolContext and generate the build-time manifest with `toolsmith schema`, which finds it',
  inject: "list the constructor's dependencies in order with @Toolset({ inject: [...] }) or @Injectable({ inject: [...] })",
  dto:
    'class-validator DTOs need legacy decorators; describe the argument with a Standard Schema (@Tool({ input })), ' +
    'a TypeScript interface and the build-time manifest (`toolsmith schema`), or @Tool({ inputSchema })',
} as const;

/** A parameter decorator (`@Param`, `@Ctx`, `@Inject`) or a DTO decorator called as a standard (TC39) decorator. */
export function legacyOnlyDecoratorMessage(decorator: string, replacedBy: keyof typeof STANDARD_MODE_INSTEAD): string {
  const instead = STANDARD_MODE_INSTEAD[replacedBy];
  return (
    `${decorator} was called as a standard (TC39) decorator, but it works only with legacy decorators ` +
    `("experimentalDecorators": true): standard decorators have no parameter decorators. Fix: ${instead}, ` +
    'or compile with "experimentalDecorators" and "emitDecoratorMetadata" (see docs/decorator-pitfalls.md).'
  );
}

export function paramNameMissingMessage(name: unknown): string {
  return `@Param needs a non-empty argument name as its first argument, got ${JSON.stringify(name)}.`;
}

export function injectTokenMissingMessage(): string {
  return '@Inject() needs a token (a class, string or symbol); got nothing, often a circular import.';
}

export function injectOnMethodMessage(): string {
  return '@Inject() belongs on a constructor parameter.';
}

export function providerToolMismatchMessage(toolName: string, toolProvider: string, modelDescription: string): string {
  return (
    `Provider tool "${toolName}" belongs to provider "${toolProvider}" and cannot be used with ${modelDescription}. ` +
    'Use a model of that provider for this agent, or remove the tool.'
  );
}

/** Names both places a service can come from, since the same tool may run under a Runner or be served over MCP. */
export function serviceNotConfiguredMessage(service: string, method: string): string {
  return (
    `No ${service} was given, so ctx.${method} cannot run. ` +
    `Fix: pass \`${service}\` in the Runner options, or in the serveMcp options when the tools are served over MCP.`
  );
}

export function invalidProviderShapeMessage(provider: string): string {
  return `A provider must be a class or { provide, useValue | useClass | useFactory }; got ${provider}.`;
}

export function providerWithoutSourceMessage(token: string): string {
  return `The provider for ${token} needs one of useValue, useClass or useFactory.`;
}

export function agentToolOutsideRunnerMessage(toolName: string): string {
  return `AgentTool "${toolName}" can only run inside a Runner invocation.`;
}

/**
 * `TOOL_EXECUTION_FAILED`'s message of a thrown error's `reason`: `Tool "x" failed: <reason>`, or the
 * generic `Tool "x" failed.` when the reason is empty or only white space (an `Error('')`).
 */
export function toolFailedMessage(toolName: string, reason: string): string {
  return reason.trim() === '' ? toolFailedGenericMessage(toolName) : `Tool "${toolName}" failed: ${reason}`;
}

/** `TOOL_EXECUTION_FAILED`'s generic message, `Tool "x" failed.` (the model reads `The tool failed.`). */
export function toolFailedGenericMessage(toolName: string): string {
  return `Tool "${toolName}" failed.`;
}

export function agentFailedMessage(agentName: string, reason: string | undefined): string {
  return `Agent "${agentName}" failed: ${reason}`;
}

export function runFailedMessage(reason: string): string {
  return `The run failed: ${reason}`;
}

export function typeScriptLoaderMissingMessage(file: string): string {
  return `${file} is TypeScript, and ts-node is not installed to load it. Compile it first and pass the .js file, or install ts-node.`;
}

/** The refusals of the shared HTTP guard (`@toolsmith/core/internal`'s `HttpGuard`), each with what to do instead. */
export const httpGuardMessages = {
  hostNotAllowed: (host: string | undefined) =>
    `Invalid Host header ${JSON.stringify(host ?? '')}: this server answers only the names it listens on (DNS-rebinding protection).`,
  originNotAllowed: (origin: string) => `Origin ${JSON.stringify(origin)} is not allowed: only pages served by this server may call it.`,
  unauthorized: (hint: string) => `Unauthorized: ${hint}`,
  methodNotAllowed: (method: string | undefined, path: string, allowed: readonly string[]) =>
    `${method ?? '(no method)'} is not allowed on ${path}; use ${allowed.join(' or ')}.`,
  unsupportedMediaType: (type: string | undefined) =>
    `The request body must be JSON sent with Content-Type: application/json, not ${type === undefined ? 'no Content-Type' : JSON.stringify(type)}.`,
  bodyTooLarge: (maxBytes: number) => `The request body is larger than ${maxBytes} bytes.`,
  malformedJson: () => 'The request body is not valid JSON.',
  malformedUrl: (target: string) => `The request path ${JSON.stringify(target)} is not a valid URL path (malformed percent-encoding?).`,
};

/** `TOOL_NOT_FOUND`: the name the model called and the names it may call (also the error's `details.availableTools`). */
export function toolNotFoundMessage(toolName: string, availableTools: readonly string[]): string {
  return `Tool "${toolName}" is not available. Available tools: ${availableTools.length ? availableTools.join(', ') : '(none)'}.`;
}

/** `TOOL_TIMEOUT`: the timeout the call ran past (also the error's `details.timeoutMs`). */
export function toolTimeoutMessage(toolName: string, timeoutMs: number): string {
  return `Tool "${toolName}" did not finish within ${timeoutMs} ms and was cancelled.`;
}

/** `TOOL_CALL_DENIED`: the confirmation policy's reason, quoted (also the error's `details.reason`). */
export function toolCallDeniedMessage(toolName: string, reason: string): string {
  return `The call to tool "${toolName}" was denied by policy: ${JSON.stringify(reason)}. Do not retry it unless the user asks.`;
}

/** `TOOL_INTERRUPTED`: the call was cut off before it answered. */
export function toolInterruptedMessage(toolName: string): string {
  return (
    `The call to tool "${toolName}" was interrupted before it answered (the process running it stopped). ` +
    'It may or may not have taken effect; it was not run again. Check its effect before calling it again.'
  );
}

/** A tool returned files larger, together, than the limit. */
export function toolFilesTooLargeMessage(toolName: string, bytes: number, maxBytes: number): string {
  return `Tool "${toolName}" returned files of ${bytes} bytes together, over the limit of ${maxBytes} bytes. Return smaller files, or raise the runner's maxToolFileBytes.`;
}

/** The runner's `sessionClaim` option holds a value no claim can work with. */
export function invalidSessionClaimPolicyMessage(option: string, value: unknown, rule: string): string {
  return `Runner option sessionClaim.${option} is ${typeof value === 'string' ? JSON.stringify(value) : String(value)}: it must be ${rule}.`;
}

/** A `compaction` option (of an agent or the runner) that cannot work, with what is wrong in it. */
export function invalidCompactionMessage(where: string, problem: string): string {
  return `The compaction option of ${where} is invalid: ${problem}. See docs/context.md.`;
}

/** The runner's `budget` option cannot work, with what is wrong in it. */
export function invalidRunBudgetMessage(problem: string): string {
  return `Runner option budget is invalid: ${problem}. See docs/context.md.`;
}

/** The budget's `costOf` could not price an event (it threw, or returned no usable number); the run ends on it. */
export function costOfFailedMessage(author: string, problem: string): string {
  return `Runner option budget is invalid: its costOf ${problem} (pricing an event of ${author}). The run stopped, since its cost cannot be counted. See docs/context.md.`;
}

/** A run passed a limit of its budget and stops before the next model call. */
export function runBudgetExceededMessage(limit: string, max: number, used: number): string {
  return `The run passed its budget: ${limit} is ${max}, and the run has used ${used}. It stopped before calling the model again; raise the runner's budget.${limit} to let runs go further.`;
}

/** A `@Resource` URI that is not an absolute URI (`scheme:…`, no spaces, no braces). */
export function invalidResourceUriMessage(site: DefinitionSite, uri: string): string {
  return `${describeSite(site)}: @Resource URI "${uri}" is not an absolute URI without spaces or braces. Fix: write it as scheme:rest (e.g. docs://readme); for a URI with variables use @ResourceTemplate.`;
}

/** A `@ResourceTemplate` URI template that RFC 6570 (or Toolsmith's check of it) rejects. */
export function invalidUriTemplateMessage(site: DefinitionSite, template: string, problem: string): string {
  return `${describeSite(site)}: URI template "${template}" ${problem}. Fix: write an RFC 6570 template such as weather://cities/{city}.`;
}

/** Two resources (or two resource templates) of what one class or server offers share a URI. */
export function duplicateResourceUriMessage(site: DefinitionSite, uri: string, first: string): string {
  return `${describeSite(site)}: resource URI "${uri}" is already offered by ${first}. Fix: give each resource its own URI.`;
}

/** A prompt's name, or one of its arguments, is not usable. */
export function invalidPromptMessage(site: DefinitionSite, problem: string): string {
  return `${describeSite(site)}: ${problem}. Fix: names match ^[a-zA-Z0-9_-]{1,64}$ and each argument is named once.`;
}

/** Two prompts share a name. */
export function duplicatePromptNameMessage(site: DefinitionSite, name: string, first: string): string {
  return `${describeSite(site)}: prompt name "${name}" is already used by ${first}. Fix: give one of them another name with @Prompt({ name: '...' }).`;
}

/** A `@Complete` names a prompt, template or argument the class does not offer, or one another method already completes. */
export function invalidCompletionTargetMessage(site: DefinitionSite, problem: string): string {
  return `${describeSite(site)}: @Complete ${problem}. Fix: name a prompt or resource template of the same class and one of its arguments, once.`;
}

/** Why an answer to confirmation request `requestId` was refused (`INVALID_CONFIRMATION_ANSWER`); `problem` says what it cannot take. */
export function invalidConfirmationAnswerMessage(requestId: string, problem: string): string {
  return `The answer to confirmation request "${requestId}" was refused: ${problem}.`;
}

/**
 * Edited arguments of a confirmation answer refused for `toolName`, each problem once; a problem's own
 * closing period is dropped (`…in arguments.` would end `arguments..`), so the text reads as one sentence.
 */
export function confirmationEditInvalidMessage(requestId: string, toolName: string, problems: readonly string[]): string {
  const listed = listProblems(problems.map((problem) => problem.replace(/\.+$/, '')));
  return `The edited arguments in the answer to confirmation request "${requestId}" were refused for tool "${toolName}": ${listed}. Nothing ran; the request is still open.`;
}

/**
 * What a `confirmationPolicy` that threw did, as stored in the call's verdict: the thrown value's class
 * only, never its message (stored in the session and shown to the person, it may hold a secret).
 */
export function policyThrewProblem(thrown: unknown): string {
  const kind = isError(thrown) ? errorClassName(thrown) : thrown === null ? 'null' : typeof thrown;
  return `it threw (${kind}; its message is not stored, as it may hold a secret)`;
}

/** The process warning when a `GenerateOptions.onProviderExchange` observer threw: the model call went on without it. */
export function providerObserverFailedMessage(providerName: string, thrown: unknown): string {
  const why = redactSecretText(isError(thrown) ? `${errorClassName(thrown)}: ${thrownMessage(thrown)}` : thrownMessage(thrown));
  return `The onProviderExchange observer of a model call to ${providerName} threw (${why}); the call went on without it (its retries included), and this call's later attempts are not reported to it.`;
}

/** At most this many problems are listed in one message (`INVALID_ARGUMENTS`, `TOOL_OUTPUT_INVALID`, `OUTPUT_INVALID`, …). */
export const MAX_LISTED_PROBLEMS = 50;
/** The problems listed in one message take at most this many characters; the rest are counted, not listed. */
export const MAX_LISTED_PROBLEM_CHARS = 4_000;
/** One problem's sentence is cut to this many characters (with `…`) when it is longer. */
export const MAX_PROBLEM_CHARS = 300;

/** `INVALID_ARGUMENTS`' message (thrown errors, spans, logs): the tool and every problem, listed by {@link listProblems}. */
export function invalidArgumentsMessage(toolName: string, problems: readonly { message: string }[]): string {
  return `${invalidArgumentsPrefix(toolName)}${listProblems(problems.map((p) => p.message))}.`;
}

/** How every {@link invalidArgumentsMessage} starts, before the tool's name. */
export const INVALID_ARGUMENTS_MESSAGE_START = 'Invalid arguments for tool "';

/** How {@link invalidArgumentsMessage} starts: `Invalid arguments for tool "x": `. */
export function invalidArgumentsPrefix(toolName: string): string {
  return `${INVALID_ARGUMENTS_MESSAGE_START}${toolName}": `;
}

/** How {@link invalidArgumentsFeedback} starts. */
export const INVALID_ARGUMENTS_FEEDBACK_PREFIX = 'Invalid arguments: ';

/**
 * `INVALID_ARGUMENTS` as the model reads it, in the call's error response: every problem, listed by
 * {@link listProblems}, without the tool's name, which the response already carries (Gemini's function
 * response names the tool; OpenAI's and Anthropic's results name the call that does, sent just before).
 */
export function invalidArgumentsFeedback(problems: readonly { message: string }[]): string {
  return `${INVALID_ARGUMENTS_FEEDBACK_PREFIX}${listProblems(problems.map((p) => p.message))}.`;
}

/**
 * How a tool-call error's message may name the called tool at its start, and what the model reads there
 * instead: `[text before the name, text after it, the start the model reads]`. The error response is sent
 * with the call it answers, which names the tool (Gemini's function response carries the name itself;
 * OpenAI's and Anthropic's results carry the id of the call, sent just before them), so the name would
 * be paid for twice on every later request of the conversation.
 */
const TOOL_NAMING_STARTS: readonly (readonly [before: string, after: string, instead: string])[] = [
  [INVALID_ARGUMENTS_MESSAGE_START, '": ', INVALID_ARGUMENTS_FEEDBACK_PREFIX],
  ['Arguments for tool "', '" ', 'The arguments '],
  ['Tool "', '" ', 'The tool '],
  ['The call to tool "', '" ', 'The call '],
  ['The user rejected the call to tool "', '"', 'The user rejected the call'],
];

/**
 * A tool-call error's message as the model reads it in the call's error response: where its start names
 * the called tool (`Tool "x" failed: …`, `Arguments for tool "x" are …`, `Invalid arguments for tool "x": …`,
 * `The call to tool "x" was …`, `The user rejected the call to tool "x"…`), it says `The tool failed: …`,
 * `The arguments are …`, `Invalid arguments: …`, `The call was …`, `The user rejected the call…` instead
 * (see {@link TOOL_NAMING_STARTS}). Any other message is sent as it is, and so is `TOOL_NOT_FOUND`'s,
 * where the name is the news. The error itself (thrown, on the outcome, in spans and logs) keeps the name.
 */
export function toolCallFeedback(toolName: string, error: { readonly code: string; readonly message: string }): string {
  const message = error.message;
  if (error.code === 'TOOL_NOT_FOUND') return message;
  for (const [before, after, instead] of TOOL_NAMING_STARTS) {
    if (!message.startsWith(before) || !message.startsWith(toolName, before.length)) continue;
    const end = before.length + toolName.length;
    if (message.startsWith(after, end)) return instead + message.slice(end + after.length);
  }
  return message;
}

/**
 * The `details` of a tool-call error as the model reads them in the call's error response: without the
 * members its message already states, so nothing is sent twice; `undefined` when none is left. That is
 * `TOOL_NOT_FOUND`'s `availableTools`, `TOOL_TIMEOUT`'s `timeoutMs`, `TOOL_FILES_TOO_LARGE`'s `bytes` and
 * `maxBytes`, `TOOL_CALL_DENIED`'s `toolName` and `reason`, and `TOOL_INTERRUPTED`'s `toolName` and
 * `functionCallId` (the call's name and id, which the response carries), each left out only when the
 * message is the one Toolsmith writes of them for this call; and any error's `statedDetails`, the members
 * its class declares its message states (`MCP_TOOL_ERROR`'s `remote.message`, `HTTP_EXCEPTION`'s
 * `status`). The error itself keeps them all.
 */
export function withoutStatedDetails(
  call: { readonly id: string; readonly name: string },
  error: { readonly code: string; readonly message: string; readonly statedDetails?: ReadonlyArray<readonly string[]> },
  details: unknown,
): unknown {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return details;
  if (error.statedDetails) return withoutDeclaredDetails(details as Record<string, unknown>, error.statedDetails);
  const d = details as Record<string, unknown>;
  let stated: readonly string[] | undefined;
  switch (error.code) {
    case 'TOOL_NOT_FOUND':
      if (Array.isArray(d.availableTools) && error.message === toolNotFoundMessage(call.name, d.availableTools as string[])) stated = ['availableTools'];
      break;
    case 'TOOL_TIMEOUT':
      if (typeof d.timeoutMs === 'number' && error.message === toolTimeoutMessage(call.name, d.timeoutMs)) stated = ['timeoutMs'];
      break;
    case 'TOOL_FILES_TOO_LARGE':
      if (typeof d.bytes === 'number' && typeof d.maxBytes === 'number' && error.message === toolFilesTooLargeMessage(call.name, d.bytes, d.maxBytes)) stated = ['bytes', 'maxBytes'];
      break;
    case 'TOOL_CALL_DENIED':
      if (d.toolName === call.name && typeof d.reason === 'string' && error.message === toolCallDeniedMessage(call.name, d.reason)) stated = ['toolName', 'reason'];
      break;
    case 'TOOL_INTERRUPTED':
      if (d.toolName === call.name && d.functionCallId === call.id && error.message === toolInterruptedMessage(call.name)) stated = ['toolName', 'functionCallId'];
      break;
  }
  if (stated === undefined) return details;
  const rest: Record<string, unknown> = {};
  let left = false;
  for (const key of Object.keys(d)) {
    if (stated.includes(key)) continue;
    rest[key] = d[key];
    left = true;
  }
  return left ? rest : undefined;
}

/** `details` without the members at `paths` (copied where one is left out; a member left empty goes too); `undefined` when none is left. */
function withoutDeclaredDetails(details: Record<string, unknown>, paths: ReadonlyArray<readonly string[]>): Record<string, unknown> | undefined {
  let rest: Record<string, unknown> | undefined = details;
  for (const path of paths) {
    if (rest === undefined) break;
    rest = withoutMember(rest, path, 0);
  }
  return rest;
}

/** `record` without the member at `path` (from `path[at]` down), or `record` itself when it has none. */
function withoutMember(record: Record<string, unknown>, path: readonly string[], at: number): Record<string, unknown> | undefined {
  const key = path[at];
  if (key === undefined || !Object.prototype.hasOwnProperty.call(record, key)) return record;
  let inner: Record<string, unknown> | undefined;
  if (at < path.length - 1) {
    const member = record[key];
    if (typeof member !== 'object' || member === null || Array.isArray(member)) return record;
    inner = withoutMember(member as Record<string, unknown>, path, at + 1);
    if (inner === member) return record;
  }
  // A spread copy keeps every own key where it was (an own `__proto__` included); the member is replaced in place or removed.
  const copy: Record<string, unknown> = { ...record };
  if (inner === undefined) delete copy[key];
  else Object.defineProperty(copy, key, { value: inner, enumerable: true, writable: true, configurable: true });
  return Object.keys(copy).length > 0 ? copy : undefined;
}

/** `CONFIRMATION_PENDING`'s message, in the response that stands in for a call still waiting for its confirmation. */
export function confirmationPendingFeedback(): string {
  return "The call did not run: it is still waiting for the user's confirmation.";
}

/**
 * The problems as one `; `-separated list, in the order given: each problem's sentence (cut to
 * {@link MAX_PROBLEM_CHARS}), at most {@link MAX_LISTED_PROBLEMS} of them and at most
 * {@link MAX_LISTED_PROBLEM_CHARS} characters of them; the ones left out are counted at the end
 * (`…and 15950 more problems`). Linear in the number of problems, whatever it is.
 */
export function listProblems(problems: readonly string[]): string {
  let listed = '';
  let count = 0;
  for (; count < problems.length && count < MAX_LISTED_PROBLEMS; count++) {
    const problem = cutProblem(problems[count]);
    const next = count === 0 ? problem : `${listed}; ${problem}`;
    // The first problem is always listed (it fits: MAX_PROBLEM_CHARS < MAX_LISTED_PROBLEM_CHARS).
    if (next.length > MAX_LISTED_PROBLEM_CHARS) break;
    listed = next;
  }
  const more = problems.length - count;
  return more === 0 ? listed : `${listed}; ${moreProblemsText(more)}`;
}

/** `…and 1 more problem`, `…and 15950 more problems`: the end of a list {@link listProblems} cut. */
export function moreProblemsText(more: number): string {
  return `…and ${more} more ${more === 1 ? 'problem' : 'problems'}`;
}

/** One problem's sentence as listed: cut to {@link MAX_PROBLEM_CHARS} characters. */
export function cutProblem(problem: string): string {
  return problem.length > MAX_PROBLEM_CHARS ? `${problem.slice(0, MAX_PROBLEM_CHARS - 1)}…` : problem;
}

/** An error's class name, for a message; `Error` when it cannot be read (a getter or Proxy that throws). */
/** `value instanceof Error`, total: `instanceof` itself throws for a revoked Proxy (which is then no error here). */
function isError(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

function errorClassName(error: Error): string {
  try {
    const name: unknown = error.constructor?.name;
    return typeof name === 'string' && name !== '' ? name : 'Error';
  } catch {
    return 'Error';
  }
}

/** A callback hook (of a plugin or an agent's callbacks) that is neither a function nor a list of functions. */
export function invalidCallbackHookMessage(where: string, hook: string, got: string): string {
  return `${where}.${hook} is ${got}; a hook is a function or a list of functions (leave it out for none).`;
}

/** A plugin or agent's callbacks whose hook throws when read (a getter, a revoked Proxy); what was thrown is redacted (it may hold a key). */
export function unreadableCallbacksMessage(where: string, hook: string, reason: string): string {
  return `${where}.${hook} cannot be read (${redactSecretText(reason)}); give a plain object or class instance of callbacks.`;
}

/** A runner's `plugins` option when it is not an array (`owner`: `The runner's`, `The DurableRunner's`). */
export function pluginsNotArrayMessage(owner: string, got: string): string {
  return `${owner} plugins option is ${got}; give an array of plugins (objects of callbacks with a name).`;
}

/** A plugin or an agent's `callbacks` that is no object. */
export function callbacksNotObjectMessage(where: string, got: string): string {
  return `${where} is ${got}; give an object of callbacks (a plain object or a class instance).`;
}
