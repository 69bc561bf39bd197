import type { StandardSchemaV1 } from '@standard-schema/spec';
import { AgentConfigError } from '../errors/agent-config-error';
import { ManifestError } from '../errors/manifest-errors';
import { invalidOutputSchemaMessage, noManifestForTypeMessage } from '../errors/messages';
import type { JsonSchema } from '../model/json-schema';
import type { ResponseSchema } from '../model/llm-request';
import { buildDtoSchema } from '../scanning/dto-schema';
import { defaultManifest } from '../scanning/manifest-registry';
import { type ManifestTypeRef, isManifestTypeRef } from '../scanning/manifest-type';
import { metaSchemaProblems } from '../validation/meta-schema-check';
import { isStandardSchema, standardJsonSchema } from '../validation/standard-schema';

/**
 * What an agent's final answer must be: a Standard Schema of an object (zod, valibot, arktype: the model is
 * sent its library's JSON Schema, the library validates the answer, and its output is the agent's output,
 * typed), a class-validator DTO class (its schema is built like a DTO parameter's, and class-validator also
 * checks the answer where the schema cannot say everything), a TypeScript object type through the
 * build-time manifest (`manifestType<T>('Name')`), or a JSON Schema object (draft 2020-12) whose root is
 * `type: "object"`.
 */
export type OutputSchema<TOutput = unknown> = StandardSchemaV1<unknown, TOutput> | ManifestTypeRef<TOutput> | JsonSchema | (new (...args: never[]) => TOutput);

/** An agent's output schema, resolved once when the agent is built. */
export interface ResolvedOutputSchema {
  /** What adapters send (name, canonical schema, description). */
  readonly request: ResponseSchema;
  /** The DTO class, when the schema came from one and class-validator must also check the answer. */
  readonly classValidatorDto?: new () => object;
  /** The Standard Schema, when the schema came from one: its library validates the answer. */
  readonly standard?: StandardSchemaV1;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Resolves `outputSchema` for agent `agentName`; throws `AGENT_CONFIG_INVALID` for a schema that cannot
 * be used, and a `ManifestError` for a manifest type that cannot be read.
 */
export function resolveOutputSchema(agentName: string, source: OutputSchema): ResolvedOutputSchema {
  // First: an arktype schema is a function, and a Standard Schema may carry any other keys.
  if (isStandardSchema(source)) {
    const converted = standardJsonSchema(source, 'input');
    if ('problem' in converted) throw new AgentConfigError(invalidOutputSchemaMessage(agentName, converted.problem));
    // Its library judges the answer: keywords and formats ajv does not know are the library's own.
    return { ...resolveJsonSchema(agentName, converted.schema, '', false), standard: source };
  }
  if (isManifestTypeRef(source)) {
    const manifest = source.manifest ?? defaultManifest();
    if (!manifest) throw new ManifestError('MANIFEST_TYPE_MISSING', noManifestForTypeMessage(source.typeName), '', { details: { typeName: source.typeName } });
    return resolveJsonSchema(agentName, manifest.typeSchema(source.typeName), source.typeName);
  }
  if (typeof source === 'function') {
    const dto = buildDtoSchema(source, { className: source.name || 'OutputDto' });
    const request: ResponseSchema = { name: schemaName(source.name, agentName), schema: dto.schema };
    if (typeof dto.schema.description === 'string') request.description = dto.schema.description;
    return dto.runClassValidator ? { request, classValidatorDto: source as unknown as new () => object } : { request };
  }
  if (typeof source !== 'object' || source === null || Array.isArray(source)) {
    throw new AgentConfigError(invalidOutputSchemaMessage(agentName, 'it is neither a class nor an object'));
  }
  return resolveJsonSchema(agentName, source, typeof source.title === 'string' ? source.title : '');
}

/** `source` checked as an output schema; `preferredName` names it when providers accept the name. */
function resolveJsonSchema(agentName: string, source: JsonSchema, preferredName: string, strict = true): ResolvedOutputSchema {
  if (source.type !== 'object') {
    throw new AgentConfigError(invalidOutputSchemaMessage(agentName, `its root type is ${JSON.stringify(source.type)}, not "object" (providers' structured output wants an object)`));
  }
  const problems = metaSchemaProblems(source, strict);
  if (problems) throw new AgentConfigError(invalidOutputSchemaMessage(agentName, problems));
  const request: ResponseSchema = { name: schemaName(preferredName, agentName), schema: source };
  if (typeof source.description === 'string') request.description = source.description;
  return { request };
}

/** The schema's own name when providers accept it, else `<agent>_output`, cut to 64 characters. */
function schemaName(preferred: string, agentName: string): string {
  if (NAME.test(preferred)) return preferred;
  const fallback = `${agentName}_output`.replace(/[^a-zA-Z0-9_-]/g, '_');
  return fallback.slice(0, 64);
}
