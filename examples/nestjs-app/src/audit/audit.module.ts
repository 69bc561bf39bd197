import { Module } from '@nestjs/common';
import { AuditLog } from './audit-log';

/** Provides the audit log to the Toolsmith plugin (and to anyone else who imports it). */
@Module({ providers: [AuditLog], exports: [AuditLog] })
export class AuditModule {}
