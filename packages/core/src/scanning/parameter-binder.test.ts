import type { ToolContext } from '../tools/tool-context';
import { type ArgumentSource, createParameterBinding } from './parameter-binder';

const createParameterBinder = (toolName: string, sources: readonly ArgumentSource[]) => createParameterBinding(toolName, sources).bind;

const context = { marker: 'context' } as unknown as ToolContext;

describe('createParameterBinding', () => {
  // Every arity with the context nowhere, first, in the middle and last: the specialised binders and
  // the general one must all put each value at its parameter's position.
  const shapes: [number, number | undefined][] = [];
  for (let count = 0; count <= 6; count++) {
    shapes.push([count, undefined]);
    for (let at = 0; at < count; at++) shapes.push([count, at]);
  }
  it.each(shapes)('binds %i parameters with the context at %s', (count, contextAt) => {
    const sources: ArgumentSource[] = Array.from({ length: count }, (_, i) =>
      i === contextAt ? { kind: 'context' } : { kind: 'argument', name: `p${i}` },
    );
    const args = Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, i * 10]));
    const expected = Array.from({ length: count }, (_, i) => (i === contextAt ? context : i * 10));
    expect(createParameterBinder('t', sources)(args, context)).toEqual(expected);
    // A missing argument arrives as undefined, so a JS default applies.
    expect(createParameterBinder('t', sources)({}, context)).toEqual(expected.map((v) => (v === context ? context : undefined)));
  });

  it('uses defaults and converts DTO values only where declared', () => {
    class Dto {
      name = '';
    }
    const binder = createParameterBinder('t', [
      { kind: 'argument', name: 'a', defaultValue: 7 },
      { kind: 'argument', name: 'dto', dto: { type: Dto, runClassValidator: false } },
      { kind: 'context' },
    ]);
    const [a, dto, ctx] = binder({ dto: { name: 'x' } }, context) as unknown[];
    expect(a).toBe(7);
    expect(dto).toBeInstanceOf(Dto);
    expect(ctx).toBe(context);
  });
});
