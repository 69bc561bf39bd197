import type { Type } from '@nestjs/common';
import type { BaseTool, InjectionToken } from '@toolsmith/core';

/** A `@Toolset` class found among the application's Nest providers, with the tools built from it. */
export interface DiscoveredToolset {
  /** The token Nest knows the provider by (usually the class itself). */
  readonly token: InjectionToken;
  /** The `@Toolset` class. */
  readonly toolsetClass: Type;
  /** The `prefix` given to `@Toolset`, if any. */
  readonly prefix?: string;
  /** Its tools. The instance behind them is taken from Nest at the first call (per run when request-scoped). */
  readonly tools: readonly BaseTool[];
}
