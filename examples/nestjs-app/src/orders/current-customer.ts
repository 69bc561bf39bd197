import { Inject, Injectable, Scope } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import type { ResolutionScope } from '@toolsmith/core';

/**
 * The customer a run acts for. Request-scoped: Toolsmith resolves one per run, and inside a run Nest's
 * `REQUEST` is the run's scope (`userId`, `sessionId`, `invocationId`). Tools that depend on it can only
 * ever touch that customer's orders, whatever the model asks.
 */
@Injectable({ scope: Scope.REQUEST })
export class CurrentCustomer {
  readonly id: string;

  constructor(@Inject(REQUEST) run: ResolutionScope) {
    this.id = run.userId;
  }
}
