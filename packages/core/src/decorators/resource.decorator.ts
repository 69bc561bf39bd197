import { RESOURCE_METADATA } from '../metadata-keys';
import type { ToolFile } from '../tools/tool-file';
import type { ToolsmithMethodDecorator } from './decorator-types';
import { recordingMethodDecorator } from './standard-decorators';

/**
 * What a `@Resource` or `@ResourceTemplate` method returns: text (a string), bytes (a `Uint8Array`),
 * or a file (`toolFile({ mimeType, data })`, whose type wins over the decorator's `mimeType`).
 */
export type ResourceContents = string | Uint8Array | ToolFile;

/** Options of {@link Resource}. */
export interface ResourceOptions {
  /** The resource's URI (absolute, with a scheme: `docs://readme`, `file:///etc/motd`); unique among what a server offers. */
  uri: string;
  /** Its name for people and clients; defaults to the method name. */
  name?: string;
  /** A human-readable title. */
  title?: string;
  /** What it holds. */
  description?: string;
  /** Its media type; default `text/plain` for text, `application/octet-stream` for bytes. */
  mimeType?: string;
}

/**
 * Marks a method of a `@Toolset` class as the reader of one resource (a document, a table, a file) that a
 * server offers besides its tools. The method takes the request's {@link OfferingContext} and returns
 * {@link ResourceContents}. The class is built by the same container as for its tools; only records its
 * options, the scanner checks them at startup.
 *
 * @example
 * ```ts
 * @Resource({ uri: 'docs://readme', mimeType: 'text/markdown' })
 * readme() { return '# Weather tools\n…'; }
 * ```
 */
export function Resource(options: ResourceOptions): ToolsmithMethodDecorator {
  return recordingMethodDecorator('@Resource()', RESOURCE_METADATA, { ...options });
}
