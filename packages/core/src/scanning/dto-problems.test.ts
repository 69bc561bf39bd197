import { Type } from 'class-transformer';
import { IsArray, IsIn, IsISO8601, IsOptional, IsString, MinLength, ValidateNested } from 'class-validator';
import type { InvalidArgumentsError } from '../errors/tool-call-errors';
import { functionTool } from '../function-tool/function-tool';
import { invokeTool } from '../testing/invoke-tool';
import { Tool } from '../tools/tool';
import { Toolset } from '../tools/toolset';

class SubtaskDto {
  @IsString() @MinLength(1) title!: string;
  @IsOptional() @IsISO8601() dueDate?: string;
}

class CreateTaskDto {
  @IsString() @MinLength(1) title!: string;
  @IsIn(['low', 'medium', 'high']) priority!: string;
  @IsOptional() @IsISO8601() dueDate?: string;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => SubtaskDto) subtasks?: SubtaskDto[];
}

const created: CreateTaskDto[] = [];

@Toolset()
class TaskTools {
  @Tool({ description: 'Creates a task.' })
  createTask(task: CreateTaskDto) {
    created.push(task);
    return { status: 'created' };
  }
}

function problemPaths(result: { error?: unknown }): string[] {
  return (result.error as InvalidArgumentsError).problems.map((p) => p.path).sort();
}

describe('every problem of a call in one response (ajv and class-validator together)', () => {
  it('reports an empty title, an unknown priority and a date that is not ISO 8601 at once', async () => {
    const result = await invokeTool(TaskTools, 'createTask', { title: '', priority: 'urgent', dueDate: 'next friday' });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(problemPaths(result)).toEqual(['/dueDate', '/priority', '/title']);
    expect((result.error as InvalidArgumentsError).problems.find((p) => p.path === '/dueDate')?.message).toMatch(/ISO 8601/);
    expect(JSON.stringify(result.response)).toContain('dueDate');
    expect(created).toHaveLength(0);
  });

  it('adds no class-validator problem where ajv already reported one (at or above its path)', async () => {
    const result = await invokeTool(TaskTools, 'createTask', JSON.stringify({ title: 'x', priority: 'high', subtasks: ['not an object', { title: '', dueDate: 'soon' }], extra: 1 }));
    // ajv: subtasks/0 is not an object, subtasks/1/title too short, extra unknown; class-validator adds only subtasks/1/dueDate.
    expect(problemPaths(result).filter((p) => p.startsWith('/subtasks/1'))).toEqual(['/subtasks/1/dueDate', '/subtasks/1/title']);
    const problems = (result.error as InvalidArgumentsError).problems;
    expect(problems.filter((p) => /extra/.test(p.message))).toHaveLength(1);
    expect(problems.filter((p) => p.path === '/subtasks/1/title')).toHaveLength(1);
  });

  it('still reports a class-validator problem alone when ajv accepts the arguments', async () => {
    const result = await invokeTool(TaskTools, 'createTask', { title: 'Ship', priority: 'low', dueDate: 'next friday' });
    expect(problemPaths(result)).toEqual(['/dueDate']);
  });

  it('keeps @IsISO8601 to class-validator: ISO 8601 forms that RFC 3339 (format: date-time) would reject still pass', async () => {
    for (const dueDate of ['2026-11-24', '2026-W47-2', '2026-11-24T10:00', '2026-11-24T10:00:00Z']) {
      expect(await invokeTool(TaskTools, 'createTask', { title: 'Ship', priority: 'low', dueDate })).toMatchObject({ isError: false });
    }
  });

  it('works the same for a functionTool with a DTO class', async () => {
    const tool = functionTool({ name: 'create_task', description: 'Creates a task.', parameters: CreateTaskDto, execute: () => ({ status: 'created' }) });
    const result = await invokeTool(tool, 'create_task', { title: '', priority: 'urgent', dueDate: 'next friday' });
    expect(problemPaths(result)).toEqual(['/dueDate', '/priority', '/title']);
  });
});
