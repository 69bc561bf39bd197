import type { JsonSchema } from '../model/json-schema';
import { mayRepair, repairArguments } from './argument-repair';
import { repairArgumentText } from './argument-text-repair';
import { validatorFor } from './schema-validator';

const TASK: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    count: { type: 'integer' },
    ratio: { type: 'number' },
    urgent: { type: 'boolean' },
    priority: { type: 'string', enum: ['low', 'medium', 'high'] },
    tags: { type: 'array', items: { type: 'string' } },
    address: { $ref: '#/$defs/Address' },
    note: { type: ['string', 'null'] },
  },
  required: ['title'],
  additionalProperties: false,
  $defs: { Address: { type: 'object', properties: { zip: { type: 'integer' } }, required: ['zip'] } },
};

describe('repairArguments', () => {
  it('names a repaired property whose name has "/" or "~" by its escaped JSON pointer', () => {
    const schema: JsonSchema = { type: 'object', properties: { 'a/b~c': { type: 'integer' }, plain: { type: 'integer' } } };
    expect(repairArguments({ 'a/b~c': '1', plain: '2' }, schema)).toEqual({
      args: { 'a/b~c': 1, plain: 2 },
      repairs: [
        { repair: 'string-to-number', path: '/a~1b~0c' },
        { repair: 'string-to-number', path: '/plain' },
      ],
    });
  });

  it('converts numbers and booleans sent as strings where the schema says so', () => {
    expect(repairArguments({ title: 'a', count: '3', ratio: '0.5', urgent: 'true' }, TASK)).toEqual({
      args: { title: 'a', count: 3, ratio: 0.5, urgent: true },
      repairs: [
        { repair: 'string-to-number', path: '/count' },
        { repair: 'string-to-number', path: '/ratio' },
        { repair: 'string-to-boolean', path: '/urgent' },
      ],
    });
  });

  it("never changes the model's arguments: the repaired ones are a copy, and where nothing applies nothing is copied or changed", () => {
    const deepFreeze = <T>(value: T): T => {
      if (typeof value === 'object' && value !== null) for (const inner of Object.values(value)) deepFreeze(inner);
      return Object.freeze(value);
    };
    const repairable = deepFreeze({ title: 'a', count: '3', tags: ['x', 'y'], address: { zip: '75001' }, priority: null });
    const before = JSON.stringify(repairable);
    const repaired = repairArguments(repairable, TASK)!;
    expect(repaired.args).toEqual({ title: 'a', count: 3, tags: ['x', 'y'], address: { zip: 75001 } });
    expect(repaired.repairs.map((r) => r.path)).toEqual(['/count', '/address/zip', '/priority']);
    expect(repaired.args.tags).not.toBe(repairable.tags);
    expect(JSON.stringify(repairable)).toBe(before);
    // Frozen, so a change would throw: nothing applies, nothing is touched.
    expect(repairArguments(deepFreeze({ title: 7, count: 'three', tags: [1, '2'], address: { zip: 'none' }, extra: { a: [null] } }), TASK)).toBeUndefined();
  });

  it('refuses what is not exactly a number, an integer or a boolean', () => {
    for (const value of ['3.5', ' 3', '03', '0x10', 'NaN', '', 'three']) expect(repairArguments({ title: 'a', count: value }, TASK)).toBeUndefined();
    expect(repairArguments({ title: 'a', urgent: 'yes' }, TASK)).toBeUndefined();
  });

  it('decodes an object or array property sent as a JSON string, following $ref, and repairs inside it', () => {
    expect(repairArguments({ title: 'a', address: '{"zip":"75001"}', tags: '["x"]' }, TASK)).toEqual({
      args: { title: 'a', address: { zip: 75001 }, tags: ['x'] },
      repairs: [
        { repair: 'double-encoded-property', path: '/address' },
        { repair: 'string-to-number', path: '/address/zip' },
        { repair: 'double-encoded-property', path: '/tags' },
      ],
    });
  });

  it('leaves out null for an optional property that does not allow null, never for a required or nullable one', () => {
    expect(repairArguments({ title: 'a', count: null, note: null }, TASK)).toEqual({
      args: { title: 'a', note: null },
      repairs: [{ repair: 'null-for-optional', path: '/count' }],
    });
    expect(repairArguments({ title: null }, TASK)).toBeUndefined();
  });

  it('fixes the case of an enum value only when exactly one value matches', () => {
    expect(repairArguments({ title: 'a', priority: 'HIGH' }, TASK)?.args.priority).toBe('high');
    const twins: JsonSchema = { type: 'object', properties: { mode: { enum: ['on', 'ON', 'off'] } } };
    expect(repairArguments({ mode: 'On' }, twins)).toBeUndefined();
    expect(repairArguments({ title: 'a', priority: 'urgent' }, TASK)).toBeUndefined();
  });

  it('touches nothing under a union with more than one real branch', () => {
    const union: JsonSchema = { type: 'object', properties: { n: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] } } };
    expect(repairArguments({ n: '1' }, union)).toBeUndefined();
    const nullable: JsonSchema = { type: 'object', properties: { n: { anyOf: [{ type: 'integer' }, { type: 'null' }] } } };
    expect(repairArguments({ n: '1' }, nullable)?.args).toEqual({ n: 1 });
  });

  it("never changes the model's own object", () => {
    const args = { title: 'a', address: { zip: '1' } };
    repairArguments(args, TASK);
    expect(args).toEqual({ title: 'a', address: { zip: '1' } });
  });
});

describe('mayRepair', () => {
  /** ajv's errors for `args` against TASK (all of them, as the executor validates). */
  const errorsOf = (args: Record<string, unknown>, schema: JsonSchema = TASK) => {
    const validate = validatorFor(schema);
    expect(validate(args)).toBe(false);
    return validate.errors;
  };

  it('says no repair applies when every refusal is one no repair fixes: a missing or unknown property, an enum value no option matches, a wrong number', () => {
    const args = { priority: 'urgent', extra: 1, count: 1.5, tags: [3] };
    expect(mayRepair(errorsOf(args), args)).toBe(false);
    expect(repairArguments(args, TASK)).toBeUndefined();
    const ranged: JsonSchema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 }, s: { type: 'string', maxLength: 2 } } };
    const outOfRange = { n: 0, s: 'abc' };
    expect(mayRepair(errorsOf(outOfRange, ranged), outOfRange)).toBe(false);
  });

  it('says one may where ajv refused a string or a null by its type, enum or const, or an enum value that matches ignoring case', () => {
    const cases: Array<[Record<string, unknown>, JsonSchema?]> = [
      [{ title: 'a', count: '3' }],
      [{ title: 'a', count: null }],
      [{ title: 'a', priority: 'HIGH' }],
      [{ title: 'a', address: '{"zip":1}' }],
      [{ title: 'a', address: { zip: '75001' } }],
      [{ 'a/b': null }, { type: 'object', properties: { 'a/b': { const: 1 } } }],
      [{ n: '1' }, { type: 'object', properties: { n: { anyOf: [{ type: 'integer' }, { type: 'null' }] } } }],
    ];
    for (const [args, schema] of cases) {
      expect(mayRepair(errorsOf(args, schema), args)).toBe(true);
      expect(repairArguments(args, schema ?? TASK)).toBeDefined();
    }
  });
});

describe('repairArgumentText', () => {
  it('removes a Markdown code fence, with or without a language', () => {
    expect(repairArgumentText('```json\n{"a":1}\n```')).toEqual({ text: '{"a":1}', repairs: [{ repair: 'code-fence', path: '' }] });
    expect(repairArgumentText('```{"a":1}```')?.text).toBe('{"a":1}');
  });

  it('drops trailing commas outside strings only', () => {
    expect(repairArgumentText('{"a":[1,2,],"b":",}",}')).toEqual({ text: '{"a":[1,2],"b":",}"}', repairs: [{ repair: 'trailing-comma', path: '' }] });
  });

  it('decodes arguments double-encoded as a JSON string, then repairs the inner text', () => {
    expect(repairArgumentText(JSON.stringify('{"a":1,}'))).toEqual({
      text: '{"a":1}',
      repairs: [
        { repair: 'double-encoded-arguments', path: '' },
        { repair: 'trailing-comma', path: '' },
      ],
    });
  });

  it('returns nothing for text no repair applies to', () => {
    expect(repairArgumentText('{"a": ')).toBeUndefined();
    expect(repairArgumentText('"just text"')).toBeUndefined();
    expect(repairArgumentText("{'a': 1}")).toBeUndefined();
  });
});
