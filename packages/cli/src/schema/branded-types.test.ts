import Ajv2020 from 'ajv/dist/2020';
import { manifestOf } from '../__fixtures__/manifest-of';

// Branded strings and numbers, as users write them and as zod (`z.$brand`) and valibot (`Brand`) type them.
const BRANDED_TOOLS = `
import { Tool, Toolset } from '@toolsmith/core';
declare const zodBrand: unique symbol;
type ZodBrand<T extends string> = { [zodBrand]: { [K in T]: true } };
declare const valibotBrand: unique symbol;
interface ValibotBrand<T extends string> { [valibotBrand]: { [V in T]: V } }
type UserId = string & { __brand: 'UserId' };
/** @integer */
type Cents = number & { readonly __brand: 'Cents' };
type OrderId = string & ZodBrand<'OrderId'>;
type Sku = string & ValibotBrand<'Sku'>;
type Status = ('open' | 'shipped') & { __brand: 'Status' };
interface Refund { order: OrderId; amount: Cents; skus: Sku[] }
@Toolset()
export class Shop {
  @Tool()
  refund(user: UserId, refund: Refund, status: Status, note?: UserId | null) { return 1; }
}
`;

describe('a branded string or number is written as its base type', () => {
  const { document } = manifestOf({ 'tools.ts': BRANDED_TOOLS });
  const method = document.toolsets.Shop.methods.refund;
  const schemas = Object.fromEntries(method.parameters.map((p) => [p.name, p.schema]));
  const valid = (name: string, value: unknown) => new Ajv2020({ strict: false }).validate({ ...schemas[name], $defs: method.$defs }, value);

  it('as a parameter, a property, an array element, a literal union and a nullable union', () => {
    expect(schemas.user).toEqual({ type: 'string' });
    expect(schemas.refund).toEqual({
      type: 'object',
      properties: { order: { type: 'string' }, amount: { type: 'integer' }, skus: { type: 'array', items: { type: 'string' } } },
      required: ['amount', 'order', 'skus'],
      additionalProperties: false,
    });
    expect(schemas.status).toEqual({ anyOf: [{ type: 'string', const: 'open' }, { type: 'string', const: 'shipped' }] });
    expect(schemas.note).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('takes the values the base type takes, and only those', () => {
    expect(valid('user', 'u-1')).toBe(true);
    expect(valid('user', { __brand: 'UserId' })).toBe(false);
    expect(valid('refund', { order: 'A-1', amount: 250, skus: ['s1'] })).toBe(true);
    expect(valid('refund', { order: 'A-1', amount: 2.5, skus: ['s1'] })).toBe(false);
    expect(valid('status', 'open')).toBe(true);
    expect(valid('status', 'lost')).toBe(false);
    expect(valid('note', null)).toBe(true);
  });
});
