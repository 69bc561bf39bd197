import { Tool, Toolset } from '@toolsmith/core';
import { AuditedTools } from './base-tools';

/** Inherits `auditLog` as a tool; overrides `purge` without `@Tool`, which hides it, as at runtime. */
@Toolset()
export class ArchiveTools extends AuditedTools {
  /**
   * Archives a document.
   * @param id Document id
   */
  @Tool()
  archive(id: string): { archived: boolean } {
    return { archived: id.length > 0 };
  }

  override purge(): void {}
}
