import { Tool } from '@toolsmith/core';

/** Tools every audited toolset inherits; not a toolset itself. */
export abstract class AuditedTools {
  /**
   * Lists recent audit entries.
   * @param limit How many entries
   */
  @Tool()
  auditLog(limit = 10): string[] {
    return [`last ${limit}`];
  }

  /** Purges the audit log. */
  @Tool()
  purge(): void {}
}
