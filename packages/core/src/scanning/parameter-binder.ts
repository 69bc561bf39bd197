import type { ValidationError } from 'class-validator';
import { loadClassTransformer, loadClassValidator } from '../validation/lazy-modules';
import { type ArgumentProblem, InvalidArgumentsError } from '../errors/tool-call-errors';
import type { ToolContext } from '../tools/tool-context';

/** Where one method parameter's value comes from. Decided at scan time; the call only follows it. */
export type ArgumentSource =
  | {
      readonly kind: 'argument';
      readonly name: string;
      readonly defaultValue?: unknown;
      readonly dto?: DtoConversion;
      /** Turns the validated JSON value into what the method declared (a manifest's `Date` parameter). */
      readonly revive?: (value: unknown) => unknown;
    }
  | { readonly kind: 'context' }
  | { readonly kind: 'dto'; readonly dto: DtoConversion }
  | { readonly kind: 'all-arguments' };

/** A DTO class the value is converted to, and whether class-validator checks it after ajv. */
export interface DtoConversion {
  readonly type: Function;
  readonly runClassValidator: boolean;
}

/** Turns validated arguments and the context into the method's argument list. */
export type ParameterBinder = (args: Record<string, unknown>, context: ToolContext) => unknown[] | Promise<unknown[]>;

/** The options class-validator runs with; the DTO schemas mirror them (`additionalProperties: false`). */
export const CLASS_VALIDATOR_OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

/**
 * Precomputes the binder of a method so a call does no reflection: arguments in declaration order,
 * missing optional ones as their default (or `undefined`, so a JS default applies), DTOs converted to
 * class instances (class-transformer) so their getters and methods work, the context injected.
 */
export function createParameterBinder(toolName: string, sources: readonly ArgumentSource[]): ParameterBinder {
  const checked = sources.some((s) => (s.kind === 'dto' || s.kind === 'argument') && s.dto?.runClassValidator);
  const count = sources.length;
  // The common case (only plain @Param values and the context) gets a binder without per-source branching.
  if (sources.every((s) => s.kind === 'context' || (s.kind === 'argument' && !s.dto && !s.revive && s.defaultValue === undefined))) {
    const names = sources.map((s) => (s.kind === 'argument' ? s.name : undefined));
    const [n0, n1, n2, n3] = names;
    const contextAt = names.indexOf(undefined);
    // Array literals for the usual shapes (no context, or the context last): cheaper than filling an array in a loop.
    if (contextAt === -1) {
      if (count === 0) return () => [];
      if (count === 1) return (args) => [args[n0!]];
      if (count === 2) return (args) => [args[n0!], args[n1!]];
      if (count === 3) return (args) => [args[n0!], args[n1!], args[n2!]];
      if (count === 4) return (args) => [args[n0!], args[n1!], args[n2!], args[n3!]];
    } else if (contextAt === count - 1 && names.lastIndexOf(undefined) === contextAt) {
      if (count === 1) return (_args, context) => [context];
      if (count === 2) return (args, context) => [args[n0!], context];
      if (count === 3) return (args, context) => [args[n0!], args[n1!], context];
      if (count === 4) return (args, context) => [args[n0!], args[n1!], args[n2!], context];
    }
    return (args, context) => {
      const values = new Array<unknown>(count);
      for (let i = 0; i < count; i++) {
        const name = names[i];
        values[i] = name === undefined ? context : args[name];
      }
      return values;
    };
  }
  const bindSync = (args: Record<string, unknown>, context: ToolContext): unknown[] => {
    const values = new Array<unknown>(count);
    for (let i = 0; i < count; i++) {
      const source = sources[i];
      switch (source.kind) {
        case 'argument': {
          let value = args[source.name];
          if (value === undefined) value = source.defaultValue;
          else if (source.dto && value !== null) value = loadClassTransformer().plainToInstance(source.dto.type as new () => object, value);
          else if (source.revive && value !== null) value = source.revive(value);
          values[i] = value;
          break;
        }
        case 'context':
          values[i] = context;
          break;
        case 'dto':
          values[i] = loadClassTransformer().plainToInstance(source.dto.type as new () => object, args);
          break;
        case 'all-arguments':
          values[i] = args;
          break;
      }
    }
    return values;
  };
  if (!checked) return bindSync;
  const checking: ParameterBinder = async (args, context) => {
    const values = bindSync(args, context);
    const problems: ArgumentProblem[] = [];
    for (let i = 0; i < count; i++) {
      const source = sources[i];
      const dto = source.kind === 'dto' || source.kind === 'argument' ? source.dto : undefined;
      if (!dto?.runClassValidator || values[i] == null) continue;
      const prefix = source.kind === 'argument' ? `/${source.name}` : '';
      try {
        problems.push(...toProblems(await loadClassValidator().validate(values[i] as object, CLASS_VALIDATOR_OPTIONS), prefix));
      } catch (thrown) {
        // class-validator itself can throw on odd input (e.g. maxDecimalPlaces on 5e-324): still the model's input.
        const reason = thrown instanceof Error ? thrown.message : String(thrown);
        problems.push({ path: prefix, keyword: 'classValidator', message: `${prefix ? `"${prefix.slice(1)}"` : 'arguments'} could not be validated: ${reason}` });
      }
    }
    if (problems.length) throw new InvalidArgumentsError(toolName, problems);
    return values;
  };
  checkingBinders.add(checking);
  return checking;
}

const checkingBinders = new WeakSet<ParameterBinder>();

/** True when the binder also runs class-validator (so binding can reject arguments ajv accepted). */
export function runsClassValidator(binder: ParameterBinder): boolean {
  return checkingBinders.has(binder);
}


/** class-validator's errors as one readable sentence per failed constraint. */
export function toProblems(errors: readonly ValidationError[], prefix = ''): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  for (const error of errors) {
    const path = error.property === undefined ? prefix : `${prefix}/${error.property}`;
    for (const [keyword, message] of Object.entries(error.constraints ?? {})) {
      const where = path ? `"${path.slice(1).replace(/\//g, '.')}"` : 'arguments';
      // class-validator's messages start with the property name; say where instead, like ajv problems.
      const text = error.property !== undefined && message.startsWith(`${error.property} `) ? message.slice(error.property.length + 1) : message;
      problems.push({ path, keyword, message: `${where} ${text}` });
    }
    if (error.children?.length) problems.push(...toProblems(error.children, path));
  }
  return problems;
}
