import type { JsonSchema } from './json-schema';

/**
 * What the model is told about one tool. This is the neutral form, not a provider's: `parameters` is
 * the canonical JSON Schema (always `type: "object"`), from which adapters derive their dialect.
 */
export interface FunctionDeclaration {
  /** The tool's name, by which the model calls it (`^[a-zA-Z0-9_-]{1,64}$`). */
  name: string;
  /** What the tool does, for the model (with the long-running note for long-running tools); may be empty. */
  description: string;
  /** Canonical JSON Schema (draft 2020-12) of the arguments; always `type: "object"`. */
  parameters: JsonSchema;
  /** Schema of the result, when known (build-time manifests provide it). */
  response?: JsonSchema;
}
