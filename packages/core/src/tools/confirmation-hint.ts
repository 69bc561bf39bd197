import type { ToolContext } from './tool-context';

/**
 * The text shown to the user when a call waits for approval (the request's `toolConfirmation.hint`):
 * fixed text, or computed from the validated arguments and the context, e.g.
 * `(args) => \`Refund ${args.amount} € to order ${args.orderId}?\``.
 */
export type ConfirmationHint<
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the default: where no argument type is given, a tool's own (a DTO, a literal) must be assignable here; parameters are contravariant
  TArgs = any,
> = string | ((args: TArgs, context: ToolContext) => string | Promise<string>);
