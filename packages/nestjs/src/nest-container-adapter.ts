import { Injectable, Scope, Type } from '@nestjs/common';
import { ContextIdFactory, ModuleRef } from '@nestjs/core';
import type { ContextId } from '@nestjs/core';
import { ContainerAdapter, InjectionToken, ResolutionScope, ToolsmithError } from '@toolsmith/core';

/** Runs whose DI sub-tree is kept; the oldest is dropped past this, in case a run is never released. */
const MAX_LIVE_RUNS = 10_000;

/**
 * Resolves Toolsmith's injection tokens from Nest's container. Singletons come from `ModuleRef.get`;
 * request-scoped and transient providers (and singletons that depend on one) are resolved per run with
 * `ModuleRef.resolve(token, contextId)`, one Nest `ContextId` per invocation, so every call of one run
 * shares an instance and concurrent runs never do. Inside such a provider, `@Inject(REQUEST)` yields the
 * run's {@link ResolutionScope} (`invocationId`, `userId`, `sessionId`).
 */
@Injectable()
export class NestContainerAdapter implements ContainerAdapter {
  private readonly contexts = new Map<string, ContextId>();
  // A provider's scope is fixed once the application is built; asked on every tool call.
  private readonly staticTokens = new Map<InjectionToken<unknown>, boolean>();

  constructor(private readonly moduleRef: ModuleRef) {}

  /** Resolves `token` from any module of the application. */
  resolve<T>(token: InjectionToken<T>, scope?: ResolutionScope): T | Promise<T> {
    if (this.isStatic(token)) return this.moduleRef.get<T>(token, { strict: false });
    if (!scope) {
      throw new ToolsmithError(
        'PROVIDER_NEEDS_RUN_SCOPE',
        `Provider ${describeToken(token)} is request-scoped or transient, so it can only be resolved during a run. Resolve it from a tool call, or make it a singleton.`,
      );
    }
    return this.moduleRef.resolve<T>(token, this.contextIdFor(scope), { strict: false });
  }

  /**
   * True when `token` has one instance for the whole application: a singleton whose dependencies are
   * all singletons. Anything else must be resolved anew for every run.
   */
  isStatic(token: InjectionToken<unknown>): boolean {
    const known = this.staticTokens.get(token);
    if (known !== undefined) return known;
    try {
      // Abstract classes are valid tokens for Nest too; its signature just does not say so.
      const isStatic = this.moduleRef.introspect(token as Type<unknown>).scope === Scope.DEFAULT;
      this.staticTokens.set(token, isStatic);
      return isStatic;
    } catch (cause) {
      throw new ToolsmithError(
        'PROVIDER_NOT_FOUND',
        `Nest has no provider for ${describeToken(token)}. Add it to the \`providers\` of a module the application imports.`,
        { cause },
      );
    }
  }

  /** Forgets the DI sub-tree of a finished run so its request-scoped instances can be collected. */
  release(invocationId: string): void {
    this.contexts.delete(invocationId);
  }

  private contextIdFor(scope: ResolutionScope): ContextId {
    let contextId = this.contexts.get(scope.invocationId);
    if (!contextId) {
      contextId = ContextIdFactory.create();
      const request: ResolutionScope = { invocationId: scope.invocationId, userId: scope.userId, sessionId: scope.sessionId };
      this.moduleRef.registerRequestByContextId(request, contextId);
      this.contexts.set(scope.invocationId, contextId);
      if (this.contexts.size > MAX_LIVE_RUNS) this.contexts.delete(this.contexts.keys().next().value!);
    }
    return contextId;
  }
}

function describeToken(token: InjectionToken<unknown>): string {
  return typeof token === 'function' ? token.name || 'an anonymous class' : String(token);
}
