import type { ToolContext } from './tool-context';

/**
 * Whether a call needs the user's approval before it runs: always, or decided from the validated
 * arguments and the context (e.g. `(args) => args.amount > 100`).
 */
export type RequireConfirmation =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool's own argument type (a DTO, a literal) must be assignable here; parameters are contravariant
  boolean | ((args: any, context: ToolContext) => boolean | Promise<boolean>);
