/**
 * The keywords a schema may use, as the startup walk reads them: 0 a keyword whose value is not a schema,
 * 1 a schema, 2 an array of schemas, 3 an object of schemas (only 1 to 3 are walked, so a `pattern` or a
 * `$ref` key inside `enum`, `const`, `default` or `examples` data is left alone). Every keyword ajv's
 * draft 2020-12 instance knows (a test compares the list with ajv's), and the annotations of the
 * providers' schema dialects, which ajv ignores and the adapters read or drop: OpenAPI's `example` and
 * `discriminator`, Gemini's `propertyOrdering`. `nullable` is ajv's too.
 */
export const KEYWORDS: Readonly<Record<string, 0 | 1 | 2 | 3 | undefined>> = Object.assign(Object.create(null) as Record<string, 0 | 1 | 2 | 3 | undefined>, {
  $schema: 0, $id: 0, $ref: 0, $anchor: 0, $dynamicRef: 0, $dynamicAnchor: 0, $recursiveRef: 0, $recursiveAnchor: 0, $vocabulary: 0, $comment: 0,
  type: 0, enum: 0, const: 0, nullable: 0,
  multipleOf: 0, maximum: 0, exclusiveMaximum: 0, minimum: 0, exclusiveMinimum: 0,
  maxLength: 0, minLength: 0, pattern: 0, format: 0, contentEncoding: 0, contentMediaType: 0,
  maxItems: 0, minItems: 0, uniqueItems: 0, maxContains: 0, minContains: 0,
  maxProperties: 0, minProperties: 0, required: 0, dependentRequired: 0, dependencies: 0,
  title: 0, description: 0, default: 0, deprecated: 0, readOnly: 0, writeOnly: 0, examples: 0,
  example: 0, discriminator: 0, propertyOrdering: 0,
  items: 1, additionalProperties: 1, not: 1, if: 1, then: 1, else: 1, contains: 1, propertyNames: 1,
  unevaluatedItems: 1, unevaluatedProperties: 1, contentSchema: 1,
  allOf: 2, anyOf: 2, oneOf: 2, prefixItems: 2,
  properties: 3, patternProperties: 3, $defs: 3, definitions: 3, dependentSchemas: 3,
});

/** Keywords ajv's draft 2020-12 instance reads otherwise than the schema's author meant, and why. */
export const NOT_READ_BY_AJV: Readonly<Record<string, string | undefined>> = Object.assign(Object.create(null) as Record<string, string | undefined>, {
  additionalItems: 'additionalItems is a draft-07 keyword that draft 2020-12 (ajv) ignores; give the schema of the elements after prefixItems as items',
  id: 'id is not read (draft 2020-12 names a schema with $id), and ajv refuses to compile it',
  $async: '$async makes ajv validate asynchronously, which tool arguments are not',
});

/** The formats ajv checks (ajv-formats' full set; a test compares the list with it). */
export const AJV_FORMATS: Readonly<Record<string, true | undefined>> = Object.assign(Object.create(null) as Record<string, true | undefined>, {
  date: true, time: true, 'date-time': true, 'iso-time': true, 'iso-date-time': true, duration: true,
  uri: true, 'uri-reference': true, 'uri-template': true, url: true, email: true, hostname: true, ipv4: true, ipv6: true,
  regex: true, uuid: true, 'json-pointer': true, 'json-pointer-uri-fragment': true, 'relative-json-pointer': true,
  byte: true, int32: true, int64: true, float: true, double: true, password: true, binary: true,
});
