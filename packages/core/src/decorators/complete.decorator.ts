import { COMPLETE_METADATA } from '../metadata-keys';
import type { ToolsmithMethodDecorator } from './decorator-types';
import { recordingMethodDecorator } from './standard-decorators';

/** Options of {@link Complete}: which argument of which prompt or resource template the method completes. */
export type CompleteOptions =
  | { /** The prompt's name (as offered). */ prompt: string; /** The argument's name. */ argument: string }
  | { /** The resource template (its `uriTemplate`, as written). */ resourceTemplate: string; /** The template variable's name. */ argument: string };

/**
 * Marks a method of a `@Toolset` class as the completer of one argument of a prompt or one variable of a
 * resource template (declared on the same class): it takes what the user typed so far, the arguments
 * already given (`{ name: value }`) and the request's {@link OfferingContext}, and returns suggestions
 * (strings, best first). Only records its options; the scanner checks the target exists at startup.
 *
 * @example
 * ```ts
 * @Complete({ prompt: 'planTrip', argument: 'city' })
 * cities(prefix: string) { return ['Paris', 'Porto', 'Prague'].filter((c) => c.startsWith(prefix)); }
 * ```
 */
export function Complete(options: CompleteOptions): ToolsmithMethodDecorator {
  return recordingMethodDecorator('@Complete()', COMPLETE_METADATA, { ...options });
}
