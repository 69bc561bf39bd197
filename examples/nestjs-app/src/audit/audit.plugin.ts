import { Injectable } from '@nestjs/common';
import type { AfterToolCallback, OnToolErrorCallback, Plugin } from '@toolsmith/core';
import { AuditLog } from './audit-log';

/**
 * A Toolsmith plugin that is a Nest provider: Nest injects its `AuditLog`, and `ToolsmithModule` binds
 * its methods to the instance, so they can use `this`. Records every tool call of every agent.
 */
@Injectable()
export class AuditPlugin implements Plugin {
  readonly name = 'audit';

  constructor(private readonly log: AuditLog) {}

  afterTool({ tool, context }: Parameters<AfterToolCallback>[0]): void {
    this.log.record({ userId: context.userId, tool: tool.name, outcome: 'ok' });
  }

  onToolError({ tool, context, error }: Parameters<OnToolErrorCallback>[0]): void {
    this.log.record({ userId: context.userId, tool: tool.name, outcome: 'error', code: error.code });
  }
}
