import Ajv2020 from 'ajv/dist/2020';
import { manifestOf } from '../__fixtures__/manifest-of';

const TEMPLATE_TOOLS = `
import { Tool, Toolset } from '@toolsmith/core';
@Toolset()
export class Codes {
  @Tool()
  find(order: \`A-\${number}\`, wrapped: \`x\${string}y\`, size: \`\${number}px\` | \`\${number}em\`, id: \`user-\${bigint}\`, dotted: \`a.b-\${'c' | 'd'}\`) { return 1; }
}
`;

describe('a template literal type is a pattern that matches its strings exactly', () => {
  const { document } = manifestOf({ 'tools.ts': TEMPLATE_TOOLS });
  const schemas = Object.fromEntries(document.toolsets.Codes.methods.find.parameters.map((p) => [p.name, p.schema]));
  const matching = (name: string, values: string[]) => values.filter((value) => new Ajv2020({ strict: false }).validate(schemas[name], value));

  it('${number} is a number as JSON writes it', () => {
    expect(matching('order', ['A-1', 'A-1.5', 'A--2', 'A-0', 'A-1e3', 'A-', 'A-x', 'A-1.', 'A-01', 'B-1', 'A-1 '])).toEqual(['A-1', 'A-1.5', 'A--2', 'A-0', 'A-1e3']);
    expect(matching('size', ['1px', '2.5em', 'px', '1pt'])).toEqual(['1px', '2.5em']);
  });

  it('${string} is any text, new lines included; literal text is matched as written', () => {
    expect(matching('wrapped', ['xy', 'x-y', 'x\ny', 'xz', 'zxy'])).toEqual(['xy', 'x-y', 'x\ny']);
    expect(matching('dotted', ['a.b-c', 'a.b-d', 'aXb-c', 'a.b-e'])).toEqual(['a.b-c', 'a.b-d']);
    expect(matching('id', ['user-12', 'user--3', 'user-1.5', 'user-'])).toEqual(['user-12', 'user--3']);
  });
});
