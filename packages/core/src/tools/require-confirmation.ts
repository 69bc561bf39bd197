import type { ToolContext } from './tool-context';

/**
 * Whether a call needs the user's approval before it runs: always, or decided from the validated
 * arguments and the context (e.g. `(args) => args.amount > 100`). `TArgs` is the tool's argument type:
 * `functionTool` infers it from `execute`, `@Tool<TArgs>({ … })` takes it explicitly.
 */
export type RequireConfirmation<
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the default: where no argument type is given, a tool's own (a DTO, a literal) must be assignable here; parameters are contravariant
  TArgs = any,
> = boolean | ((args: TArgs, context: ToolContext) => boolean | Promise<boolean>);
