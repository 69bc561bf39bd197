import { Describe, Tool, Toolset } from '@toolsmith/core';
import { IsIn, IsISO8601, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class CreateTaskDto {
  @Describe('What to do, in a few words') @IsString() @MinLength(1) @MaxLength(80) title!: string;
  @IsIn(['low', 'medium', 'high']) priority!: string;
  @Describe('When it is due (ISO 8601)') @IsOptional() @IsISO8601() dueDate?: string;
}

@Toolset()
export class TaskTools {
  /** Creates a task. */
  @Tool()
  createTask(args: CreateTaskDto) {
    return { status: 'created', title: args.title };
  }

  /** Counts tasks. */
  @Tool()
  countTasks(status: 'open' | 'done' = 'open') {
    return { status, count: 0 };
  }
}
