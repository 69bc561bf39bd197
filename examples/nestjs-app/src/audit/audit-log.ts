import { Injectable } from '@nestjs/common';

/** One tool call as the audit log records it. */
export interface AuditEntry {
  userId: string;
  tool: string;
  outcome: 'ok' | 'error';
  /** The error code, for failed calls. */
  code?: string;
}

/** Keeps a record of tool calls. In-memory here; a real app would write to its audit store. */
@Injectable()
export class AuditLog {
  private readonly entries: AuditEntry[] = [];

  record(entry: AuditEntry): void {
    this.entries.push(entry);
  }

  /** The recorded calls, oldest first. */
  list(): readonly AuditEntry[] {
    return [...this.entries];
  }
}
