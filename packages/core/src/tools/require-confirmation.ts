import type { DefinitionSite } from '../errors/messages';
import { InvalidConfirmationRuleError } from '../errors/tool-definition-errors';
import type { ToolContext } from './tool-context';
import { isPromiseLike } from './promise-like';

/**
 * Whether a call needs the user's approval before it runs: always, or decided from the validated
 * arguments and the context (e.g. `(args) => args.amount > 100`). `TArgs` is the tool's argument type:
 * `functionTool` infers it from `execute`, `@Tool<TArgs>({ … })` takes it explicitly.
 */
export type RequireConfirmation<
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the default: where no argument type is given, a tool's own (a DTO, a literal) must be assignable here; parameters are contravariant
  TArgs = any,
> = boolean | ((args: TArgs, context: ToolContext) => boolean | Promise<boolean>);

/**
 * Whether `tool`'s {@link RequireConfirmation} rule asks for this call. A rule's answer is read as `if` reads it:
 * any truthy value asks (`(args) => args.paths.length` asks for a non-empty list), so a rule typed loosely
 * (`args` is `any` by default) fails closed, never open. Awaited only when the rule returns a promise.
 */
export function confirmationRuleAsks(rule: RequireConfirmation | undefined, args: Record<string, unknown>, context: ToolContext): boolean | Promise<boolean> {
  if (rule === undefined || rule === false) return false;
  if (rule === true) return true;
  const asks: unknown = rule(args, context);
  return isPromiseLike(asks) ? Promise.resolve(asks).then(Boolean) : Boolean(asks);
}

/**
 * Throws {@link InvalidConfirmationRuleError} unless `rule` is absent, a boolean or a function: a rule such as
 * `'yes'` or `{}` would otherwise be found only by the first call, which it would fail.
 */
export function assertConfirmationRule(rule: unknown, site: DefinitionSite): void {
  if (rule === undefined || typeof rule === 'boolean' || typeof rule === 'function') return;
  throw new InvalidConfirmationRuleError(site, describeValue(rule));
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (typeof value === 'number' || typeof value === 'bigint') return `a ${typeof value} (${String(value)})`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
