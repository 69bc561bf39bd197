import { Injectable } from '@toolsmith/core';

/** One task of the to-do list. */
export interface Task {
  id: number;
  title: string;
  priority: 'low' | 'medium' | 'high';
  dueDate?: string | null;
}

/** Where the tasks live: an ordinary service, built by Toolsmith's container and injected into the toolset. */
@Injectable()
export class TaskStore {
  private readonly tasks: Task[] = [];

  add(task: Omit<Task, 'id'>): Task {
    const saved = { id: this.tasks.length + 1, ...task };
    this.tasks.push(saved);
    return saved;
  }

  list(priority?: Task['priority']): Task[] {
    return this.tasks.filter((task) => priority === undefined || task.priority === priority);
  }
}
