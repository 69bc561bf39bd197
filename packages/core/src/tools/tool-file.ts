import type { FunctionResponsePart } from '../model/content';

/** What {@link toolFile} takes: the file's media type and bytes, and optionally its name. */
export interface ToolFileInit {
  /** The IANA media type, e.g. `image/png`, `application/pdf`, `audio/wav`. */
  mimeType: string;
  /** The bytes (a `Uint8Array`, e.g. a Node `Buffer`), or the bytes already base64-encoded (not a data URL). */
  data: Uint8Array | string;
  /** A file name for the model and for providers that show one (e.g. `chart.png`). */
  name?: string;
}

/**
 * Binary content a tool returns: an image, a PDF, audio… Made with {@link toolFile}; returned alone or,
 * with a JSON result, through {@link toolResult}. Each adapter sends it to the model natively where the
 * provider can take it (see docs/tools.md), never as base64 inside JSON.
 */
export class ToolFile {
  /** The IANA media type. */
  readonly mimeType: string;
  /** The bytes, base64-encoded. */
  readonly data: string;
  /** The file name, when given. */
  readonly name?: string;

  /** @internal Use {@link toolFile}. */
  constructor(init: ToolFileInit) {
    this.mimeType = init.mimeType;
    this.data = typeof init.data === 'string' ? init.data : Buffer.from(init.data.buffer, init.data.byteOffset, init.data.byteLength).toString('base64');
    if (init.name !== undefined) this.name = init.name;
  }

  /** The neutral part the function response carries. */
  toPart(): FunctionResponsePart {
    return { inlineData: this.name === undefined ? { mimeType: this.mimeType, data: this.data } : { mimeType: this.mimeType, data: this.data, displayName: this.name } };
  }
}

/**
 * A file for a tool to return: `return toolFile({ mimeType: 'image/png', data: pngBytes, name: 'chart.png' })`.
 * The model gets it as an image (or document, audio…) beside an empty JSON response; to send JSON too,
 * return {@link toolResult}. Checked when the tool returns it (`INVALID_TOOL_RESULT` for a media type
 * that is not `type/subtype`, data that is not base64, or a PNG, JPEG, GIF, WebP or PDF whose first bytes are
 * not that type's; `TOOL_FILES_TOO_LARGE` over the size limit); its media type is kept in lower case.
 */
export function toolFile(init: ToolFileInit): ToolFile {
  return new ToolFile(init);
}

/**
 * A tool result made of JSON and files: `return toolResult({ rows: 3 }, [toolFile({...})])`. The JSON
 * (`value`, wrapped as `{ result: value }` unless a plain object) is the response and counts against
 * the result budget; the files go beside it, never cut, under their own size limit.
 */
export class ToolResult {
  /** @internal Use {@link toolResult}. */
  constructor(
    /** The JSON part of the result. */
    readonly value: unknown,
    /** The files returned with it. */
    readonly files: readonly ToolFile[],
  ) {}
}

/** A result of JSON and files (see {@link ToolResult}). */
export function toolResult(value: unknown, files: readonly ToolFile[]): ToolResult {
  return new ToolResult(value, files);
}
