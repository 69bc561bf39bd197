import { manifestOf } from '../__fixtures__/manifest-of';

// Types JSON cannot carry are refused at generation, naming the parameter (and the path to the part), never written as something else.
it.each([
  ['bigint', 'b: bigint', 'b', 'bigint', 'bigint has no JSON form'],
  ['a bigint literal', 'b: 1n | 2n', 'b', '1n \\| 2n', 'bigint has no JSON form'],
  ['a bigint inside an object', 'b: { id: bigint }', 'b', '\\{ id: bigint; \\}', 'bigint has no JSON form'],
  ['a symbol', 's: symbol', 's', 'symbol', 'a symbol has no JSON form'],
  ['a function', 'cb: () => void', 'cb', '\\(\\) => void', 'cb is a function: JSON has no functions'],
  ['a function inside an object', 'o: { cb: () => void }', 'o', '\\{ cb: \\(\\) => void; \\}', 'o.cb is a function'],
  ['an optional function in a tuple', 't: [string, (() => void)?]', 't', '\\[string, .*\\]', 't\\[1\\] is a function'],
  ['a method of an interface', 'j: Job', 'j', 'Job', 'j.run is a function'],
  ['a function in an array, in a union', 'l: Array<{ f: Function } | string> | null', 'l', '.*', 'l\\[\\]\\.f is a function'],
  ['a Map', 'm: Map<string, number>', 'm', 'Map<string, number>', 'm is a Map: JSON has no Maps'],
  ['a Set inside an object', 'o: { tags: Set<string> }', 'o', '.*', 'o.tags is a Set: JSON has no Sets'],
  ['a WeakMap', 'm: WeakMap<object, number>', 'm', '.*', 'm is a Map'],
  ['a WeakSet', 's: WeakSet<object>', 's', '.*', 's is a Set'],
  ['a RegExp', 'r: RegExp', 'r', 'RegExp', 'r is a RegExp: JSON has no RegExps'],
  ['a Promise', 'p: Record<string, Promise<string>>', 'p', '.*', 'p\\[string\\] is a Promise: JSON has no Promises'],
  ['a Uint8Array', 'u: Uint8Array', 'u', 'Uint8Array.*', 'u is a byte array: JSON has no bytes; take a base64 string'],
  ['an ArrayBuffer inside an object', 'o: { data: ArrayBuffer }', 'o', '.*', 'o.data is a byte array'],
  ['an Error', 'e: Error', 'e', 'Error', 'e is an Error: JSON has no Errors'],
  ['an Error in an array', 'l: TypeError[]', 'l', 'TypeError\\[\\]', 'l\\[\\] is an Error'],
  ["a project's class extending Error", 'e: NotFound', 'e', 'NotFound', 'e is an Error'],
  ['a property keyed by a symbol', 'o: Tagged', 'o', 'Tagged', 'o\\[Symbol.toStringTag\\] is keyed by a symbol'],
])('%s is refused', (_, parameter, name, type, reason) => {
  const source =
    `import { Tool, Toolset } from '@toolsmith/core';\ninterface Job { name: string; run(): void }\ninterface Tagged { name: string; [Symbol.toStringTag]: string }\n` +
    `class NotFound extends Error { code = 'NOT_FOUND' as const }\n` +
    `@Toolset() export class Odd { @Tool() m(${parameter}) { return 1; } }\n`;
  expect(() => manifestOf({ 'tools.ts': source })).toThrow(new RegExp(`parameter ${name} has type ${type}, which has no JSON Schema form \\(${reason}`));
});

// A JSDoc tag that makes a schema startup would refuse (h42d): refused when the manifest is written, naming the parameter.
it.each([
  ['on the parameter', '/** @format phone */ type Phone = string;', 'p: Phone', 'p', 'schema/format "phone" is not a format ajv checks'],
  ['on a type alias of a property', '/** @format datetime */ type When = string; interface Contact { at: When }', 'p: Contact', 'p', 'schema/properties/at/format "datetime" is not a format ajv checks, so it would not be checked \\(did you mean "date-time"\\?\\)'],
])('a @format ajv does not check %s is refused', (_, declaration, parameter, name, problem) => {
  const source = `import { Tool, Toolset } from '@toolsmith/core';\n${declaration}\n@Toolset() export class Odd { @Tool() m(${parameter}) { return 1; } }\n`;
  expect(() => manifestOf({ 'tools.ts': source })).toThrow(new RegExp(`parameter ${name} would get a schema ajv does not check as written \\(${problem}`));
});
