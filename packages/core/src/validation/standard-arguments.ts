import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ErrorObject } from 'ajv/dist/2020';
import type { ArgumentProblem } from '../errors/tool-call-errors';
import type { ArgumentRepair } from '../model/content';
import type { JsonSchema } from '../model/json-schema';
import { type ArgumentLimits, parseArguments, tooDeep } from './argument-parser';
import { repairArguments } from './argument-repair';
import { toArgumentProblems, validatorFor } from './schema-validator';
import { nativeAnswer, standardProblems } from './standard-schema';

/**
 * Which Standard Schemas judge a tool's arguments, decided at startup: one for the whole arguments
 * object (`functionTool({ parameters })`, `@Tool({ input })`), or one per `@Param` property. Each value
 * has one judge: a property a Standard Schema judges is left to it, and ajv checks only `rest`, the tool
 * schema with those properties' schemas emptied (absent when nothing is left for ajv).
 */
export interface StandardArguments {
  /** The schema of the whole arguments object. */
  readonly whole?: StandardSchemaV1;
  /** The schemas of single properties; an `optional` one the model leaves out gets what its schema makes of `undefined` (a default), else stays out. */
  readonly properties: readonly StandardProperty[];
  /** What ajv still checks: the tool schema without the properties above; absent when nothing is left. */
  readonly rest?: JsonSchema;
}

/** One property a Standard Schema judges. */
export interface StandardProperty {
  readonly name: string;
  readonly schema: StandardSchemaV1;
  /** The parameter may be left out (`optional`, a `default`, or a schema that accepts `undefined`). */
  readonly optional: boolean;
}

/** A tool whose arguments Standard Schemas judge (see {@link StandardArguments}). */
export interface HasStandardArguments {
  /** The Standard Schemas that judge the arguments, decided at startup. */
  readonly standardArguments: StandardArguments;
}

/** The tool's {@link StandardArguments}, or `undefined` when ajv alone judges its arguments. */
export function standardArgumentsOf(tool: object): StandardArguments | undefined {
  return (tool as Partial<HasStandardArguments>).standardArguments;
}

/** What the libraries made of the arguments: the validated (possibly transformed) values, or every problem. */
export type StandardCheck = { readonly args: Record<string, unknown>; readonly problems?: undefined } | { readonly problems: readonly ArgumentProblem[] };

/**
 * Runs the libraries' own `validate` on the arguments: the whole object, or each judged property (a
 * missing one is validated as `undefined`: a required one so the library says it is missing, an optional
 * one so its default is filled in). Synchronous
 * when every library answers synchronously; a promise when one of them is async. A valid call gets the
 * libraries' output values (transforms and defaults applied), in a copy of the arguments.
 */
export function checkStandardArguments(check: StandardArguments, args: Record<string, unknown>): StandardCheck | Promise<StandardCheck> {
  if (check.whole) {
    const result = nativeAnswer(check.whole['~standard'].validate(args));
    return result instanceof Promise ? result.then(wholeOutcome) : wholeOutcome(result);
  }
  const results = check.properties.map(({ name, schema, optional }) => (optional && args[name] === undefined ? leftOut(schema) : nativeAnswer(schema['~standard'].validate(args[name]))));
  if (results.some((result) => result instanceof Promise)) return Promise.all(results).then((settled) => propertiesOutcome(check, args, settled));
  return propertiesOutcome(check, args, results as StandardSchemaV1.Result<unknown>[]);
}

const LEFT_OUT: StandardSchemaV1.Result<unknown> = Object.freeze({ value: undefined });

/**
 * An optional property the model left out: the library still decides its value (a `.default(3)` gives 3,
 * a transform runs); a schema that refuses `undefined` (the parameter is optional by its `@Param`
 * options, not by its schema) leaves it out.
 */
function leftOut(schema: StandardSchemaV1): StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>> {
  const result = nativeAnswer(schema['~standard'].validate(undefined));
  return result instanceof Promise ? result.then(orLeftOut) : orLeftOut(result);
}

function orLeftOut(result: StandardSchemaV1.Result<unknown>): StandardSchemaV1.Result<unknown> {
  return result.issues ? LEFT_OUT : result;
}

function wholeOutcome(result: StandardSchemaV1.Result<unknown>): StandardCheck {
  if (result.issues) return { problems: standardProblems(result.issues) };
  const value = result.value;
  // A schema whose output is not an object (a transform to something else) still gives the tool that value.
  return { args: value as Record<string, unknown> };
}

function propertiesOutcome(check: StandardArguments, args: Record<string, unknown>, results: readonly StandardSchemaV1.Result<unknown>[]): StandardCheck {
  let problems: ArgumentProblem[] | undefined;
  const out: Record<string, unknown> = { ...args };
  for (let i = 0; i < results.length; i++) {
    const result = results[i];
    const { name } = check.properties[i];
    if (result.issues) (problems ??= []).push(...standardProblems(result.issues, `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`));
    else if (result.value === undefined) delete out[name];
    else out[name] = result.value;
  }
  return problems ? { problems } : { args: out };
}

/** What {@link judgeArguments} decided: the arguments to run with, or the problems; and the repairs made. */
export interface JudgedArguments {
  /** The arguments for the tool: the libraries' output values (a copy). Absent when there are problems. */
  readonly args?: Record<string, unknown>;
  /** Every problem (ajv's for `rest`, then the libraries'), each once. */
  readonly problems?: readonly ArgumentProblem[];
  /** ajv's errors behind its problems, for class-validator's extra problems (see `allArgumentProblems`). */
  readonly schemaErrors?: readonly ErrorObject[] | null;
  /** The arguments the problems are about (after repairs). */
  readonly checked: Record<string, unknown>;
  /** The named repairs made before the final check, when any were. */
  readonly repairs?: ArgumentRepair[];
}

/** Input of {@link judgeArguments}. */
export interface JudgeArgumentsInput {
  readonly toolName: string;
  /** The tool's JSON Schema: the named repairs read it. */
  readonly parameters: JsonSchema;
  readonly check: StandardArguments;
  readonly args: Record<string, unknown>;
  readonly repairing: boolean;
  readonly limits: ArgumentLimits;
}

/**
 * Judges a call's arguments for a tool with Standard Schemas: ajv checks `rest` (when there is one), the
 * libraries' `validate` the rest; when either refuses and repairs are on, the named repairs (read from the
 * tool's JSON Schema, as for any tool) are made and both judge again. The library is the source of truth,
 * so refinements and transforms JSON Schema cannot state apply. Synchronous unless a library is async.
 */
export function judgeArguments(input: JudgeArgumentsInput): JudgedArguments | Promise<JudgedArguments> {
  const first = judgeOnce(input.check, input.args);
  return first instanceof Promise ? first.then((judged) => afterFirst(input, judged)) : afterFirst(input, first);
}

function afterFirst(input: JudgeArgumentsInput, first: JudgedArguments): JudgedArguments | Promise<JudgedArguments> {
  if (!first.problems || !input.repairing) return first;
  const repaired = repairArguments(input.args, input.parameters, { maxDepth: input.limits.maxDepth, tooDeep: () => tooDeep(input.toolName, input.limits) });
  if (!repaired) return first;
  // A decoded property is new model input: it meets the same limits and key rules as the rest.
  const args = parseArguments(input.toolName, repaired.args, input.limits);
  const again = judgeOnce(input.check, args);
  return again instanceof Promise ? again.then((judged) => ({ ...judged, repairs: repaired.repairs })) : { ...again, repairs: repaired.repairs };
}

function judgeOnce(check: StandardArguments, args: Record<string, unknown>): JudgedArguments | Promise<JudgedArguments> {
  let ajvProblems: ArgumentProblem[] | undefined;
  let schemaErrors: readonly ErrorObject[] | null | undefined;
  if (check.rest) {
    const validate = validatorFor(check.rest);
    if (!validate(args)) {
      // Read before any await: ajv reuses `validate.errors`.
      schemaErrors = validate.errors;
      ajvProblems = toArgumentProblems(schemaErrors, args);
    }
  }
  const combine = (standard: StandardCheck): JudgedArguments => {
    if (!ajvProblems && !standard.problems) return { args: standard.args, checked: args };
    return { problems: [...(ajvProblems ?? []), ...(standard.problems ?? [])], schemaErrors, checked: args };
  };
  const standard = checkStandardArguments(check, args);
  return standard instanceof Promise ? standard.then(combine) : combine(standard);
}
