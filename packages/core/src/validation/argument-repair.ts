import type { ErrorObject } from 'ajv/dist/2020';
import type { ArgumentRepair } from '../model/content';
import type { JsonSchema } from '../model/json-schema';
import { valueAt } from './problem-text';

/** Arguments after the schema-driven repairs (a copy; the model's own object is never changed), and the repairs made. */
export interface RepairedArguments {
  args: Record<string, unknown>;
  repairs: ArgumentRepair[];
}

/**
 * How deep a decoded property may nest (`maxDepth`, counted from the arguments object, as the argument
 * limits count it) and what to throw when it nests deeper (`ARGUMENTS_TOO_DEEP` for a tool call).
 * Without one, 64 levels, and a deeper decoded value is left undecoded (not repaired).
 */
export interface RepairDepthLimit {
  readonly maxDepth: number;
  readonly tooDeep?: () => Error;
}

const DEFAULT_REPAIR_DEPTH: RepairDepthLimit = { maxDepth: 64 };

/** The keywords {@link RepairWalk} unwraps a nullable or single-branch schema through. */
const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;

/** A JSON number, exactly as JSON writes it: no spaces, no leading `+` or zeros, no hex, no `NaN`. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Repairs, guided by the tool's schema, what models commonly get wrong in otherwise well-formed
 * arguments: a property whose schema is an object or array sent as a JSON string
 * (`double-encoded-property`), numbers and booleans sent as strings (`string-to-number`,
 * `string-to-boolean`), `null` for an optional property that does not allow it (`null-for-optional`:
 * the property is left out), and an enum value in the wrong case when exactly one value matches
 * (`enum-case`). Each applies only where the value does not fit its schema, and only where the schema
 * says unambiguously what was meant: under `anyOf`/`oneOf` with more than one non-null branch nothing
 * is touched. Called only after validation failed, so valid arguments never pay for it. Returns
 * `undefined` when nothing was repaired. A decoded property is measured (to `limit.maxDepth` levels at
 * most, so however deep the text nests nothing here recurses deeper) before anything walks into it. A first walk only looks (it changes and copies nothing); the
 * arguments are copied and repaired only when it found a repair to make.
 */
export function repairArguments(args: Record<string, unknown>, schema: JsonSchema, limit: RepairDepthLimit = DEFAULT_REPAIR_DEPTH): RepairedArguments | undefined {
  const look = new RepairWalk(schema, false, limit);
  look.value(args, schema, '');
  if (look.repairs.length === 0) return undefined;
  const walk = new RepairWalk(schema, true, limit);
  // Arguments are JSON (parsed, or checked by the argument parser): a JSON round trip copies them exactly.
  // The copy stays although the executor's argument check copies again afterwards: the caller's object is
  // never changed (argument-repair.test.ts), and a beforeTool callback, or structured output's answer, may hold it.
  const copy = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
  walk.value(copy, schema, '');
  return { args: copy, repairs: walk.repairs };
}

/**
 * `args` with the value repairs listed in `repairs` made again, as {@link repairArguments} made them (a
 * copy; `args` is never changed): for what reads a call after the run (evals) from the call and the
 * `argumentRepairs` its response recorded, without the tool's schema. Text repairs (path `""`) are not
 * value repairs and are skipped; a repair whose value is not where its path points, or not what that
 * repair reads (a record from elsewhere), is skipped too. Returns `args` itself when nothing was redone.
 */
export function redoValueRepairs(args: Record<string, unknown>, repairs: readonly ArgumentRepair[]): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const made of repairs) {
    if (made.path === '' || !VALUE_REPAIRS.has(made.repair)) continue;
    copy ??= JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
    const keys = made.path.slice(1).split('/').map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop()!;
    let parent: unknown = copy;
    for (const key of keys) parent = typeof parent === 'object' && parent !== null && Object.prototype.hasOwnProperty.call(parent, key) ? (parent as Record<string, unknown>)[key] : undefined;
    if (typeof parent !== 'object' || parent === null || !Object.prototype.hasOwnProperty.call(parent, last)) continue;
    const holder = parent as Record<string, unknown>;
    const value = holder[last];
    if (made.repair === 'null-for-optional') {
      if (value === null && !Array.isArray(holder)) delete holder[last];
      continue;
    }
    if (typeof value !== 'string') continue;
    const repaired =
      made.repair === 'string-to-number' ? (JSON_NUMBER.test(value) ? Number(value) : undefined)
      : made.repair === 'string-to-boolean' ? booleanOf(value)
      : made.repair === 'double-encoded-property' ? parseJson(value)
      : typeof made.value === 'string' && made.value.toLowerCase() === value.toLowerCase() ? made.value
      : undefined;
    if (repaired !== undefined) holder[last] = repaired;
  }
  return copy ?? args;
}

/** The repairs {@link repairArguments} makes to values (the others repair the arguments' text). */
const VALUE_REPAIRS: ReadonlySet<string> = new Set(['double-encoded-property', 'string-to-number', 'string-to-boolean', 'null-for-optional', 'enum-case']);

/** The boolean a `string-to-boolean` repair reads in `value` (`"true"` or `"false"` in any case), else `undefined`. */
function booleanOf(value: string): boolean | undefined {
  const lower = value.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : undefined;
}

/**
 * False when none of ajv's `errors` (from validating `args` with `allErrors`) is at a value a named
 * repair could fix, so {@link repairArguments} need not walk the arguments: every repair replaces a
 * string or a `null` the schema refused by its `type`, its `enum` or its `const` (a refusal ajv reports
 * at that value's path, inside `anyOf`/`oneOf` branches too), and `enum-case` needs an enum value that
 * matches the string ignoring case. A missing or unknown property, a number out of range, a string an
 * enum refuses with no such match: nothing to repair. True (walk) for anything else.
 */
export function mayRepair(errors: readonly ErrorObject[] | null | undefined, args: Record<string, unknown>): boolean {
  if (!errors) return true;
  for (let i = 0; i < errors.length; i++) {
    const e = errors[i];
    if (e.keyword !== 'type' && e.keyword !== 'enum' && e.keyword !== 'const') continue;
    const value = valueAt(args, e.instancePath);
    if (value === null) return true;
    if (typeof value !== 'string') continue;
    if (e.keyword === 'type') return true;
    if (e.keyword === 'enum' && matchesIgnoringCase(value, (e.params as { allowedValues?: unknown }).allowedValues)) return true;
  }
  return false;
}

/** True when some string of `options` (an enum's values) equals `value` ignoring case. */
function matchesIgnoringCase(value: string, options: unknown): boolean {
  if (!Array.isArray(options)) return true; // unknown: let the walk decide
  const lower = value.toLowerCase();
  for (let i = 0; i < options.length; i++) {
    const option: unknown = options[i];
    if (typeof option === 'string' && option.toLowerCase() === lower) return true;
  }
  return false;
}

class RepairWalk {
  readonly repairs: ArgumentRepair[] = [];

  /** `changing`: repair objects and arrays in place; otherwise only record the repairs that apply. */
  constructor(
    private readonly root: JsonSchema,
    private readonly changing: boolean,
    private readonly limit: RepairDepthLimit,
  ) {}

  /** The value, repaired in place where it is an object or array, or its replacement. */
  value(value: unknown, rawSchema: unknown, path: string): unknown {
    const schema = this.resolve(rawSchema);
    if (!schema) return value;
    const types = typesOf(schema);
    if (typeof value === 'string') return this.string(value, schema, types, path);
    if (Array.isArray(value)) {
      if (isSchema(schema.items))
        for (let i = 0; i < value.length; i++) {
          const repaired = this.value(value[i], schema.items, `${path}/${i}`);
          if (this.changing) value[i] = repaired;
        }
      return value;
    }
    if (typeof value === 'object' && value !== null) this.object(value as Record<string, unknown>, schema, path);
    return value;
  }

  private object(value: Record<string, unknown>, schema: JsonSchema, path: string): void {
    const properties = isSchema(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
    const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
    for (const key of Object.keys(value)) {
      const propertySchema = Object.prototype.hasOwnProperty.call(properties, key)
        ? properties[key]
        : isSchema(schema.additionalProperties)
          ? schema.additionalProperties
          : undefined;
      if (propertySchema === undefined) continue;
      // JSON pointer escaping, skipped for the usual key that has neither character (two regex passes per key otherwise).
      const at = `${path}/${key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key}`;
      if (value[key] === null) {
        if (!required.includes(key) && !this.allowsNull(propertySchema)) {
          if (this.changing) delete value[key];
          this.repairs.push({ repair: 'null-for-optional', path: at });
        }
        continue;
      }
      const repaired = this.value(value[key], propertySchema, at);
      if (this.changing) value[key] = repaired;
    }
  }

  private string(value: string, schema: JsonSchema, types: ReadonlySet<string> | undefined, path: string): unknown {
    if (types && !types.has('string')) {
      if (types.has('object') || types.has('array')) {
        const decoded = parseJson(value);
        const fits = Array.isArray(decoded) ? types.has('array') : typeof decoded === 'object' && decoded !== null && types.has('object');
        if (fits && !this.fitsDepth(decoded as object, path)) {
          if (this.limit.tooDeep) throw this.limit.tooDeep();
          return value;
        }
        if (fits) {
          this.repairs.push({ repair: 'double-encoded-property', path });
          return this.value(decoded, schema, path);
        }
      }
      if ((types.has('number') || types.has('integer')) && JSON_NUMBER.test(value)) {
        const number = Number(value);
        if (types.has('number') || Number.isInteger(number)) {
          this.repairs.push({ repair: 'string-to-number', path });
          return number;
        }
      }
      if (types.has('boolean')) {
        const repaired = booleanOf(value);
        if (repaired !== undefined) {
          this.repairs.push({ repair: 'string-to-boolean', path });
          return repaired;
        }
      }
      return value;
    }
    if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
      const lower = value.toLowerCase();
      const matches = schema.enum.filter((option): option is string => typeof option === 'string' && option.toLowerCase() === lower);
      if (matches.length === 1) {
        this.repairs.push({ repair: 'enum-case', path, value: matches[0] });
        return matches[0];
      }
    }
    return value;
  }

  /** True when `decoded`, placed at `path`, nests no deeper than the limit (the arguments object is level 1). */
  private fitsDepth(decoded: object, path: string): boolean {
    let level = 1;
    for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47 /* / */) level++;
    return withinDepth(decoded, this.limit.maxDepth - level + 1);
  }

  /**
   * The schema a value must meet, with local `$ref`s followed and a nullable wrapper (`anyOf` / `oneOf` of
   * one schema and `{ type: "null" }`, or an `allOf` of one) unwrapped; `undefined` where it is ambiguous.
   */
  private resolve(raw: unknown, depth = 0): JsonSchema | undefined {
    if (!isSchema(raw) || depth > 16) return undefined;
    let schema = raw as JsonSchema;
    if (typeof schema.$ref === 'string') {
      const target = this.pointer(schema.$ref);
      if (!target) return undefined;
      schema = target;
      return this.resolve(schema, depth + 1);
    }
    for (const keyword of COMBINATORS) {
      const branches = schema[keyword];
      if (!Array.isArray(branches)) continue;
      const meaningful = branches.filter((branch) => !(keyword !== 'allOf' && isNullSchema(branch)));
      if (meaningful.length !== 1 || typesOf(schema) !== undefined || schema.properties !== undefined) return undefined;
      return this.resolve(meaningful[0], depth + 1);
    }
    return schema;
  }

  private allowsNull(raw: unknown, depth = 0): boolean {
    if (!isSchema(raw) || depth > 16) return true; // unknown: never remove what might be meant
    const schema = raw as JsonSchema;
    if (typeof schema.$ref === 'string') return this.allowsNull(this.pointer(schema.$ref), depth + 1);
    if (Array.isArray(schema.enum)) return schema.enum.includes(null);
    if ('const' in schema) return schema.const === null;
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = schema[keyword];
      if (Array.isArray(branches) && branches.some((branch) => this.allowsNull(branch, depth + 1))) return true;
    }
    const types = typesOf(schema);
    if (types) return types.has('null');
    return !Array.isArray(schema.anyOf) && !Array.isArray(schema.oneOf) && !Array.isArray(schema.allOf);
  }

  /** A local JSON pointer (`#/$defs/Address`) into the root schema. */
  private pointer(ref: string): JsonSchema | undefined {
    if (!ref.startsWith('#')) return undefined;
    let target: unknown = this.root;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      if (!isSchema(target)) return undefined;
      target = (target as Record<string, unknown>)[decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return isSchema(target) ? (target as JsonSchema) : undefined;
  }
}

/** True when `value` (an object or array: one level) nests at most `levels` levels; never recurses deeper than that. */
function withinDepth(value: object, levels: number): boolean {
  if (levels < 1) return false;
  const children = Array.isArray(value) ? value : Object.values(value);
  for (let i = 0; i < children.length; i++) {
    const child: unknown = children[i];
    if (typeof child === 'object' && child !== null && !withinDepth(child, levels - 1)) return false;
  }
  return true;
}

function isSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullSchema(value: unknown): boolean {
  return isSchema(value) && (value as JsonSchema).type === 'null';
}

/** Each schema's `type` as a set, made once per schema object (a tool's schema is walked on every invalid call). */
const typeSets = new WeakMap<JsonSchema, ReadonlySet<string> | null>();

function typesOf(schema: JsonSchema): ReadonlySet<string> | undefined {
  let types = typeSets.get(schema);
  if (types === undefined) {
    types = typeof schema.type === 'string' ? new Set([schema.type]) : Array.isArray(schema.type) ? new Set(schema.type as string[]) : null;
    typeSets.set(schema, types);
  }
  return types ?? undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
