import type { BaseTool } from '../tools/base-tool';
import type { ToolContext } from '../tools/tool-context';
import type { Toolset } from '../tools/toolset';

/** The names of `T`'s methods (the candidates for `@Tool`: types cannot tell which ones carry it). */
export type ToolMethodName<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] & string;

/**
 * The tool names {@link invokeTool} accepts for `target`. For a `@Toolset` class or one of its instances:
 * a method's name, or a name that ends with it (the toolset's `prefix` added, e.g. `shop_add` for
 * `add`), checked at compile time. For anything else (a `BaseTool`, a `Toolset`, a value typed only
 * `Function`): any string.
 */
export type InvokableToolName<T> = T extends BaseTool | readonly BaseTool[] | Toolset
  ? string
  : T extends abstract new (...args: never[]) => infer Instance
    ? NamesOf<Instance>
    : T extends Function
      ? string
      : NamesOf<T>;

/** A method's name or a name ending with one; any string when the type names no method (`unknown`, `object`). */
export type NamesOf<T> = [ToolMethodName<T>] extends [never] ? string : ToolMethodName<T> | `${string}${ToolMethodName<T>}`;

/**
 * The arguments {@link invokeTool} accepts for tool `name` of `target`. For a method whose only
 * argument (the `ToolContext` aside) is an object (a class-validator DTO, or `@Tool({ input })`): that
 * object as JSON carries it (see {@link JsonShape}), so a wrong property type or an unknown property
 * does not compile. Otherwise (one argument per `@Param`, whose names types do not know) any
 * object. JSON text (a string) is always accepted, unchecked, as the model sends it: use it to test how
 * invalid arguments are refused.
 */
export type InvokableToolArguments<T, Name extends string> = T extends BaseTool | readonly BaseTool[] | Toolset
  ? Record<string, unknown>
  : T extends abstract new (...args: never[]) => infer Instance
    ? MethodArguments<Instance, Name>
    : T extends Function
      ? Record<string, unknown>
      : MethodArguments<T, Name>;

/** The method tool name `Name` names: the exact method, else the methods it ends with (a prefixed tool name). */
export type MethodNamed<T, Name extends string> =
  Name extends ToolMethodName<T> ? Name : { [K in ToolMethodName<T>]: Name extends `${string}${K}` ? K : never }[ToolMethodName<T>];

/** The arguments of the method of `T` that tool name `Name` names (see {@link InvokableToolArguments}). */
export type MethodArguments<T, Name extends string> = [MethodNamed<T, Name>] extends [never] ? Record<string, unknown> : {
  [K in MethodNamed<T, Name>]: T[K] extends (...args: infer P) => unknown ? ArgumentsOf<WithoutContext<Required<P>>> : never;
}[MethodNamed<T, Name>];

/** The parameters of tuple `P` that are not the injected `ToolContext`. */
export type WithoutContext<P extends readonly unknown[]> = P extends readonly [infer Head, ...infer Rest]
  ? [NonNullable<Head>] extends [ToolContext]
    ? WithoutContext<Rest>
    : [Head, ...WithoutContext<Rest>]
  : [];

/** The arguments object of a method with the parameters `P` (the context left out): its one object parameter's JSON shape, else any object. */
export type ArgumentsOf<P extends readonly unknown[]> = P extends readonly [infer Only]
  ? [NonNullable<Only>] extends [object]
    ? [NonNullable<Only>] extends [readonly unknown[] | Date | Function]
      ? Record<string, unknown>
      : JsonShape<NonNullable<Only>>
    : Record<string, unknown>
  : Record<string, unknown>;

/**
 * A value as JSON carries it: methods and `readonly` properties left out (types cannot tell a getter
 * from a field, and a getter is never an argument), `Date`s as ISO strings or `Date`s, every property
 * optional: a property with a default (`limit = 10`, a schema's `.default(false)`) is required in the
 * type but not in the arguments, so a missing one is left to the runtime check.
 */
export type JsonShape<T> = T extends Date
  ? string | Date
  : T extends readonly (infer Item)[]
    ? JsonShape<Item>[]
    : T extends object
      ? { [K in keyof T as K extends MethodKeys<T> | ReadonlyKeys<T> ? never : K]?: JsonShape<T[K]> }
      : T;

/** The keys of `T` whose values are functions. */
export type MethodKeys<T> = { [K in keyof T]-?: T[K] extends Function ? K : never }[keyof T];

/** `Then` when `X` and `Y` are the same type (modifiers included), else `Else`. */
export type IfEquals<X, Y, Then, Else> = (<V>() => V extends X ? 1 : 2) extends <V>() => V extends Y ? 1 : 2 ? Then : Else;

/** The `readonly` keys of `T` (getters included: types cannot tell them apart). */
export type ReadonlyKeys<T> = { [K in keyof T]-?: IfEquals<{ [Q in K]: T[K] }, { -readonly [Q in K]: T[K] }, never, K> }[keyof T];
