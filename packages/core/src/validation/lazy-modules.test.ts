/**
 * Importing core, and scanning tools that need no DTO and no format, loads none of class-validator,
 * class-transformer, ajv-formats (nor ajv before the first validation). Checked through jest's module
 * registry: each mocked factory records that the module was loaded.
 */
import type { ToolContext } from '../tools/tool-context';

const loaded = new Set<string>();
jest.mock('class-validator', () => (loaded.add('class-validator'), jest.requireActual('class-validator')));
jest.mock('class-transformer', () => (loaded.add('class-transformer'), jest.requireActual('class-transformer')));
jest.mock('ajv-formats', () => (loaded.add('ajv-formats'), jest.requireActual('ajv-formats')));
jest.mock('ajv/dist/2020', () => (loaded.add('ajv'), jest.requireActual('ajv/dist/2020')));

describe('lazy loading of optional modules', () => {
  beforeEach(() => {
    loaded.clear();
    delete (globalThis as { classValidatorMetadataStorage?: unknown }).classValidatorMetadataStorage;
  });

  it('importing core loads none of them; @Param tools load ajv at their first call, and no formats', async () => {
    await jest.isolateModulesAsync(async () => {
      const core = require('../index') as typeof import('../index');
      const testing = require('../testing/index') as typeof import('../testing/index');
      expect([...loaded]).toEqual([]);

      @core.Toolset()
      class Weather {
        @core.Tool({ description: 'Weather.' })
        get(@core.Param('city') city: string, @core.Param('days', { optional: true }) days: number, @core.Ctx() ctx: ToolContext) {
          return { city, days, user: ctx.userId };
        }
      }
      core.scanTools(Weather);
      expect([...loaded]).toEqual([]);
      const out = await testing.invokeTool(Weather, 'get', { city: 'Oslo' });
      expect(out.response).toMatchObject({ city: 'Oslo' });
      expect([...loaded]).toEqual(['ajv']);
    });
  });

  it('a schema with a format loads ajv-formats, and the format is enforced', async () => {
    await jest.isolateModulesAsync(async () => {
      const core = require('../index') as typeof import('../index');
      const testing = require('../testing/index') as typeof import('../testing/index');
      const mail = core.functionTool({
        name: 'mail',
        description: 'Mails.',
        parameters: { type: 'object', properties: { to: { type: 'string', format: 'email' } }, required: ['to'] },
        execute: () => ({ sent: true }),
      });
      expect((await testing.invokeTool(mail, 'mail', { to: 'not an address' })).error?.code).toBe('INVALID_ARGUMENTS');
      expect((await testing.invokeTool(mail, 'mail', { to: 'a@b.example' })).response).toEqual({ sent: true });
      expect(loaded.has('ajv-formats')).toBe(true);
    });
  });

  it('a DTO (whose module imports class-validator itself) is found and validated as before', async () => {
    await jest.isolateModulesAsync(async () => {
      const validator = require('class-validator') as typeof import('class-validator');
      const core = require('../index') as typeof import('../index');
      const testing = require('../testing/index') as typeof import('../testing/index');
      class RefundDto {
        @validator.IsInt()
        @validator.Min(1)
        amount!: number;
      }
      @core.Toolset()
      class Payments {
        @core.Tool({ description: 'Refunds.' })
        refund(dto: RefundDto) {
          return { refunded: dto.amount, isDto: dto instanceof RefundDto };
        }
      }
      Reflect.defineMetadata('design:paramtypes', [RefundDto], Payments.prototype, 'refund');
      expect((await testing.invokeTool(Payments, 'refund', { amount: 5 })).response).toEqual({ refunded: 5, isDto: true });
      expect((await testing.invokeTool(Payments, 'refund', { amount: 0 })).error?.code).toBe('INVALID_ARGUMENTS');
    });
  });
});
