import { IsArray, IsString, ValidateNested } from 'class-validator';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type * as ClassTransformer from 'class-transformer';
import { buildDtoSchema } from './dto-schema';

describe('a DTO decorated through a second copy of class-transformer', () => {
  let dir: string;
  let secondCopy: typeof ClassTransformer;

  beforeAll(() => {
    // What `npm install <folder>` produces: the app's own class-transformer next to core's.
    dir = mkdtempSync(join(tmpdir(), 'toolsmith-two-copies-'));
    const installed = dirname(require.resolve('class-transformer/package.json'));
    cpSync(installed, join(dir, 'node_modules', 'class-transformer'), { recursive: true });
    secondCopy = require(join(dir, 'node_modules', 'class-transformer')) as typeof ClassTransformer;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says two copies are loaded and how to fix it, not "add @Type"', () => {
    class SubtaskDto {
      @IsString() title!: string;
    }
    class TaskDto {
      @IsArray() @ValidateNested({ each: true }) @secondCopy.Type(() => SubtaskDto) subtasks!: SubtaskDto[];
    }
    let message = '';
    try {
      buildDtoSchema(TaskDto, { className: 'TaskTools', methodName: 'createTask' });
    } catch (thrown) {
      message = (thrown as Error).message;
      expect((thrown as { code?: string }).code).toBe('INVALID_DTO');
    }
    expect(message).toContain('two copies of class-transformer are loaded');
    expect(message).toContain(join(dir, 'node_modules', 'class-transformer'));
    expect(message).toMatch(/peer dependencies of @toolsmith\/core.*npm dedupe/s);
    // Both copies by path, and a check that sees a linked folder's copy, which `npm ls` in the app cannot.
    expect(message).toContain(`@toolsmith/core reads the one at ${dirname(require.resolve('class-transformer/package.json'))}`);
    expect(message).toContain('install Toolsmith from tarballs (npm pack), not from folders');
    expect(message).toContain(`node -p "require.resolve('class-transformer', { paths: [require.resolve('@toolsmith/core')] })"`);
    expect(message).not.toContain('has no @Type');
  });

  it('still asks for @Type when no copy has one', () => {
    class SubtaskDto {
      @IsString() title!: string;
    }
    class TaskDto {
      @IsArray() @ValidateNested({ each: true }) subtasks!: SubtaskDto[];
    }
    expect(() => buildDtoSchema(TaskDto, { className: 'TaskTools', methodName: 'createTask' })).toThrow(/has no @Type\(\(\) => NestedDto\)/);
  });
});
