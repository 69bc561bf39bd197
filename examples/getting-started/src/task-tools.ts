import { Describe, Param, Tool, Toolset } from '@toolsmith/core';
import { IsIn, IsISO8601, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { TaskStore } from './task-store';

/** The arguments of `createTask`: one class-validator DTO is the tool's whole schema. */
export class CreateTaskDto {
  @Describe('What to do, in a few words')
  @IsString()
  @MinLength(1)
  @MaxLength(80)
  title!: string;

  @IsIn(['low', 'medium', 'high'])
  priority!: 'low' | 'medium' | 'high';

  @Describe('When it is due, as an ISO 8601 date, e.g. 2026-12-24')
  @IsOptional()
  @IsISO8601()
  dueDate?: string | null;
}

/** A to-do list as tools. The container builds it with its TaskStore. */
@Toolset()
export class TaskTools {
  constructor(private readonly store: TaskStore) {}

  @Tool({ description: 'Creates a task on the to-do list.' })
  createTask(task: CreateTaskDto) {
    return { status: 'created', task: this.store.add(task) };
  }

  @Tool({ description: 'Lists the tasks, optionally only those of one priority.' })
  listTasks(@Param('priority', { enum: ['low', 'medium', 'high'], optional: true, description: 'Only tasks of this priority' }) priority?: 'low' | 'medium' | 'high') {
    return { tasks: this.store.list(priority) };
  }
}
