import { RESOURCE_TEMPLATE_METADATA } from '../metadata-keys';
import type { ToolsmithMethodDecorator } from './decorator-types';
import { recordingMethodDecorator } from './standard-decorators';

/** Options of {@link ResourceTemplate}. */
export interface ResourceTemplateOptions {
  /**
   * An RFC 6570 URI template with at least one variable (`weather://cities/{city}/today`); unique among
   * what a server offers. Variable names are letters, digits, `_` and `.`.
   */
  uriTemplate: string;
  /** Its name for people and clients; defaults to the method name. */
  name?: string;
  /** A human-readable title. */
  title?: string;
  /** What its resources hold. */
  description?: string;
  /** Their media type; default `text/plain` for text, `application/octet-stream` for bytes. */
  mimeType?: string;
}

/**
 * Marks a method of a `@Toolset` class as the reader of the resources a URI template matches. The method
 * takes the template's variables (`{ city: 'Paris' }`, decoded) and the request's {@link OfferingContext},
 * and returns {@link ResourceContents}. Only records its options; the scanner checks the template at startup.
 *
 * @example
 * ```ts
 * @ResourceTemplate({ uriTemplate: 'weather://cities/{city}/today' })
 * today(vars: { city: string }) { return this.api.report(vars.city); }
 * ```
 */
export function ResourceTemplate(options: ResourceTemplateOptions): ToolsmithMethodDecorator {
  return recordingMethodDecorator('@ResourceTemplate()', RESOURCE_TEMPLATE_METADATA, { ...options });
}
