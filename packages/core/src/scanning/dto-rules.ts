import type { JsonSchema } from '../model/json-schema';

/** JSON Schema primitive type names. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/**
 * What the class-validator decorators of one DTO property (or of its items, for `each: true`) say,
 * collected before it is written as JSON Schema. Every rule narrows (AND), as class-validator does.
 */
export class PropertyRules {
  /** Allowed JSON types; `undefined` means any. */
  types?: JsonType[];
  readonly keywords: JsonSchema = {};
  /** Extra constraints that do not merge into one keyword (a second `multipleOf`, …). */
  readonly allOf: JsonSchema[] = [];
  enumValues?: unknown[];
  readonly notValues: unknown[] = [];
  /** Names of the decorators applied, for messages. */
  readonly decorators: string[] = [];
  /** True when class-validator would reject `undefined`, so the property is `required`. */
  required = false;
  /** `@IsOptional()`: `null` and `undefined` skip every other rule. */
  optional = false;
  /** `@ValidateIf` or a per-decorator `validateIf`: the rules may be skipped for any value. */
  conditional = false;
  /** Rules of each array item (`each: true`). */
  items?: PropertyRules;
  /** The nested DTO's schema (`@ValidateNested()` + `@Type(() => X)`), as an object or as array items. */
  nested?: JsonSchema;

  /** Why one decorator, as written, lets no value pass (its argument), and what to do: a startup error of its own. */
  refusesAll?: { reason: string; fix: string };

  /** One decorator lets no value pass, whatever the others say (see {@link refusesAll}). */
  refuseAll(reason: string, fix: string): void {
    this.refusesAll ??= { reason, fix };
  }

  /** Narrows the allowed types; an empty intersection means the rules contradict each other. */
  restrictTypes(allowed: readonly JsonType[]): void {
    if (!this.types) {
      this.types = [...allowed];
      return;
    }
    const next: JsonType[] = [];
    for (const t of this.types) {
      if (allowed.includes(t)) next.push(t);
      else if (t === 'number' && allowed.includes('integer')) next.push('integer');
      else if (t === 'integer' && allowed.includes('number')) next.push('integer');
    }
    this.types = [...new Set(next)];
  }

  /** Keeps the stricter of two bounds (`minimum`: the larger; `maximum`: the smaller). */
  bound(keyword: string, value: number, keep: 'max' | 'min'): void {
    const current = this.keywords[keyword];
    if (typeof current !== 'number') this.keywords[keyword] = value;
    else this.keywords[keyword] = keep === 'max' ? Math.max(current, value) : Math.min(current, value);
  }

  /** Sets a keyword, or adds it to `allOf` when another rule already set a different value. */
  constrain(keyword: string, value: unknown): void {
    if (!(keyword in this.keywords)) this.keywords[keyword] = value;
    else if (JSON.stringify(this.keywords[keyword]) !== JSON.stringify(value)) this.allOf.push({ [keyword]: value });
  }

  /** Narrows the allowed values to `values` (strict equality, as class-validator compares). */
  restrictValues(values: readonly unknown[]): void {
    const unique = uniqueJsonValues(values);
    this.enumValues = this.enumValues ? this.enumValues.filter((v) => unique.some((u) => u === v)) : unique;
  }

  /** True when no value can pass. */
  isContradictory(): boolean {
    return (this.types !== undefined && this.types.length === 0) || (this.enumValues !== undefined && this.enumValues.length === 0);
  }

  /** The JSON Schema of these rules. */
  toSchema(description?: string): JsonSchema {
    if (this.conditional) return description ? { description } : {};
    const schema: JsonSchema = {};
    if (description) schema.description = description;
    const enumValues = this.enumValues ? [...this.enumValues] : undefined;
    // Providers like a `type` next to `enum`; when the values share one, saying it changes nothing.
    const types = this.types ? [...this.types] : enumValues ? uniformType(enumValues) : undefined;
    let notValues = [...this.notValues];
    if (this.optional) {
      // Once: `@IsIn([…, null])` already lists it.
      if (types && !types.includes('null')) types.push('null');
      if (enumValues && !enumValues.includes(null)) enumValues.push(null);
      notValues = notValues.filter((v) => v !== null);
    }
    // A value the types already exclude needs no `not`.
    if (types) notValues = notValues.filter((v) => types!.some((t) => matchesType(v, t)));
    if (types) schema.type = types.length === 1 ? types[0] : types;
    if (enumValues) {
      if (enumValues.length === 1) schema.const = enumValues[0];
      else schema.enum = enumValues;
    }
    if (this.nested) {
      if (types?.includes('array') && !types.includes('object')) schema.items = this.nested;
      else Object.assign(schema, stripType(this.nested));
    }
    Object.assign(schema, this.keywords);
    if (this.items) schema.items = this.items.toSchema();
    if (notValues.length === 1) schema.not = { const: notValues[0] };
    else if (notValues.length > 1) schema.not = { enum: notValues };
    if (this.allOf.length) schema.allOf = [...this.allOf];
    return schema;
  }
}

function uniformType(values: readonly unknown[]): JsonType[] | undefined {
  const types = new Set(values.map((v) => (v === null ? 'null' : typeof v)));
  if (types.size !== 1) return undefined;
  const [type] = types;
  return type === 'string' || type === 'number' || type === 'boolean' ? [type] : undefined;
}

function matchesType(value: unknown, type: JsonType): boolean {
  if (value === null) return type === 'null';
  if (type === 'integer') return Number.isInteger(value);
  return typeof value === type;
}

/** A nested DTO schema without its `type` (the property's own types already say it). */
function stripType(nested: JsonSchema): JsonSchema {
  const { type: _type, description: _description, ...rest } = nested;
  return rest;
}

/** Primitive values only (objects never equal anything under `===`), without duplicates. */
export function uniqueJsonValues(values: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    const primitive = v === null || ['string', 'boolean'].includes(typeof v) || (typeof v === 'number' && Number.isFinite(v));
    if (primitive && !out.includes(v)) out.push(v);
  }
  return out;
}
