import { describe, expect, it } from '@jest/globals';
import { invokeTool } from '@toolsmith/core/testing';
import { TaskTools } from './task-tools';

describe('TaskTools', () => {
  it('creates a task and lists it', async () => {
    const created = await invokeTool(TaskTools, 'createTask', { title: 'Buy milk', priority: 'high', dueDate: '2026-12-24' });
    expect(created.isError).toBe(false);
    expect(created.response).toEqual({ status: 'created', task: { id: 1, title: 'Buy milk', priority: 'high', dueDate: '2026-12-24' } });
  });

  it('reports every problem of a call in one response', async () => {
    // Invalid on purpose, so given as JSON text (as the model sends it): the compiler checks only objects.
    const result = await invokeTool(TaskTools, 'createTask', JSON.stringify({ title: '', priority: 'urgent', dueDate: 'next friday' }));
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    const message = String(result.error?.message);
    for (const field of ['title', 'priority', 'dueDate']) expect(message).toContain(field);
  });

  it('takes an optional @Param', async () => {
    const listed = await invokeTool(TaskTools, 'listTasks', { priority: 'low' });
    expect(listed.response).toEqual({ tasks: [] });
  });
});
