import type { ToolContext } from './tool-context';

/**
 * The text shown to the user when a call waits for approval (the request's `toolConfirmation.hint`):
 * fixed text, or computed from the validated arguments and the context, e.g.
 * `(args) => \`Refund ${args.amount} € to order ${args.orderId}?\``.
 */
export type ConfirmationHint =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool's own argument type (a DTO, a literal) must be assignable here; parameters are contravariant
  string | ((args: any, context: ToolContext) => string | Promise<string>);
