import { InvalidToolResultError, ToolFilesTooLargeError } from '../errors/tool-call-errors';
import type { FunctionResponsePart } from '../model/content';
import type { ToolFile } from '../tools/tool-file';
import { base64Bytes } from '../adapter-kit/tool-result-files';

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The function-response parts of the files a tool returned, after checking each one (a `type/subtype`
 * media type, non-empty standard base64 data) and their size together.
 *
 * @throws InvalidToolResultError for a file that is not one; ToolFilesTooLargeError over `maxBytes`.
 */
export function fileParts(toolName: string, files: readonly ToolFile[], maxBytes: number): FunctionResponsePart[] {
  let bytes = 0;
  const parts: FunctionResponsePart[] = [];
  for (let index = 0; index < files.length; index++) {
    const file = files[index];
    const which = files.length === 1 ? 'the file' : `file ${index}`;
    if (typeof file?.mimeType !== 'string' || !MEDIA_TYPE.test(file.mimeType)) {
      throw new InvalidToolResultError(toolName, `${which} has the media type ${JSON.stringify(file?.mimeType)}, not "type/subtype" (e.g. "image/png")`);
    }
    if (file.data === '') throw new InvalidToolResultError(toolName, `the data of ${which} is empty`);
    if (typeof file.data !== 'string' || file.data.length % 4 !== 0 || !BASE64.test(file.data)) {
      throw new InvalidToolResultError(toolName, `the data of ${which} is not base64 (give the bytes as a Uint8Array, or base64 text without a "data:" prefix)`);
    }
    bytes += base64Bytes(file.data);
    parts.push(file.toPart());
  }
  if (bytes > maxBytes) throw new ToolFilesTooLargeError(toolName, bytes, maxBytes);
  return parts;
}
