import { manifestOf } from '../__fixtures__/manifest-of';

// Types JSON cannot carry are refused at generation, naming the parameter, never written as something else.
it.each([
  ['bigint', 'b: bigint', 'b', 'bigint', 'bigint has no JSON form'],
  ['a bigint literal', 'b: 1n | 2n', 'b', '1n \\| 2n', 'bigint has no JSON form'],
  ['a bigint inside an object', 'b: { id: bigint }', 'b', '\\{ id: bigint; \\}', 'bigint has no JSON form'],
  ['a symbol', 's: symbol', 's', 'symbol', 'a symbol has no JSON form'],
])('%s is refused', (_, parameter, name, type, reason) => {
  const source = `import { Tool, Toolset } from '@toolsmith/core';\n@Toolset() export class Odd { @Tool() m(${parameter}) { return 1; } }\n`;
  expect(() => manifestOf({ 'tools.ts': source })).toThrow(new RegExp(`parameter ${name} has type ${type}, which has no JSON Schema form \\(${reason}`));
});
