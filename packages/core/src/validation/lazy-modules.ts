import type * as ClassTransformer from 'class-transformer';
import type * as ClassValidator from 'class-validator';
import type Ajv2020 from 'ajv/dist/2020';

// class-validator (with validator and libphonenumber-js), class-transformer and ajv-formats are most of
// the modules core would load at import; many apps use no DTO and no format. They are required on first
// use instead. Type-only imports above keep the types.

let classValidator: typeof ClassValidator | undefined;
let classTransformer: typeof ClassTransformer | undefined;
let transformerStorage: TransformerStorage | undefined;

/** class-transformer's `@Type` store; the package exposes it only at this path. */
export interface TransformerStorage {
  findTypeMetadata(target: Function, property: string): { typeFunction: () => unknown } | undefined;
}

/** class-validator, loaded on first use. */
export function loadClassValidator(): typeof ClassValidator {
  return (classValidator ??= require('class-validator') as typeof ClassValidator);
}

/** class-transformer, loaded on first use. */
export function loadClassTransformer(): typeof ClassTransformer {
  return (classTransformer ??= require('class-transformer') as typeof ClassTransformer);
}

/** class-transformer's metadata storage (where `@Type(() => X)` is kept), loaded on first use. */
export function loadTransformerStorage(): TransformerStorage {
  return (transformerStorage ??= (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage }).defaultMetadataStorage);
}

/**
 * True once any copy of class-validator has been loaded: its metadata storage lives on the global
 * object, shared by every copy. Before that no class can carry class-validator rules, so scanning a
 * parameter type needs no DTO check and loads nothing.
 */
export function classValidatorLoaded(): boolean {
  return (globalThis as { classValidatorMetadataStorage?: unknown }).classValidatorMetadataStorage !== undefined;
}

/** ajv's draft 2020-12 class, loaded on first use (the first validation or explicit-schema check). */
export function loadAjv2020(): typeof Ajv2020 {
  return (require('ajv/dist/2020') as { default: typeof Ajv2020 }).default;
}

/** ajv-formats, loaded when the first schema with a `format` is compiled. */
export function loadAjvFormats(): (ajv: Ajv2020) => unknown {
  return (require('ajv-formats') as { default: (ajv: Ajv2020) => unknown }).default;
}
