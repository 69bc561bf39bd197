import type { JsonSchema } from './json-schema';

/**
 * What the model is told about one tool. This is the neutral form, not a provider's: `parameters` is
 * the canonical JSON Schema (always `type: "object"`), from which adapters derive their dialect.
 */
export interface FunctionDeclaration {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** Schema of the result, when known (build-time manifests provide it). */
  response?: JsonSchema;
}
