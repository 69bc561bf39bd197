import { PROMPT_METADATA } from '../metadata-keys';
import type { ToolFile } from '../tools/tool-file';
import type { ToolsmithMethodDecorator } from './decorator-types';
import type { ResourceContents } from './resource.decorator';
import { recordingMethodDecorator } from './standard-decorators';

/** One argument a {@link Prompt} takes (always a string, as clients fill them in). */
export interface PromptArgument {
  /** Its name: letters, digits, `_` and `-`. */
  name: string;
  /** What to give. */
  description?: string;
  /** The prompt cannot be made without it. Default `false`. */
  required?: boolean;
}

/** Options of {@link Prompt}. */
export interface PromptOptions {
  /** The prompt's name (`^[a-zA-Z0-9_-]{1,64}$`); defaults to the method name. Unique among what a server offers. */
  name?: string;
  /** A human-readable title. */
  title?: string;
  /** What the prompt is for. */
  description?: string;
  /** The arguments it takes, in order. */
  arguments?: readonly PromptArgument[];
}

/** A resource embedded in a prompt message: its URI and its contents. */
export interface PromptResource {
  /** The resource's URI. */
  uri: string;
  /** Text, bytes or a file. */
  contents: ResourceContents;
  /** The media type of text or bytes; default `text/plain` for text, `application/octet-stream` for bytes. */
  mimeType?: string;
}

/** One message of a prompt: who says it, and text, a file (an image, audio) or an embedded resource. */
export interface PromptMessage {
  /** `user` or `assistant`. */
  role: 'user' | 'assistant';
  /** Text, a file (`toolFile`: `image/*` and `audio/*` as such, other types as an embedded resource) or a resource. */
  content: string | ToolFile | { resource: PromptResource };
}

/**
 * Marks a method of a `@Toolset` class as a prompt: a message template a client offers its user (e.g. as
 * a slash command). The method takes the arguments (`{ name: value }`, strings, required ones checked
 * before the call) and the request's {@link OfferingContext}, and returns the messages, or one string for
 * a single user message. Only records its options; the scanner checks them at startup.
 *
 * @example
 * ```ts
 * @Prompt({ description: 'Plan a trip', arguments: [{ name: 'city', required: true }] })
 * planTrip(args: { city: string }) { return `Plan a day in ${args.city}; check the weather first.`; }
 * ```
 */
export function Prompt(options: PromptOptions = {}): ToolsmithMethodDecorator {
  return recordingMethodDecorator('@Prompt()', PROMPT_METADATA, { ...options });
}
