import { InvalidToolResultError, ToolFilesTooLargeError } from '../errors/tool-call-errors';
import type { FunctionResponsePart } from '../model/content';
import { ToolFile, type ToolResult } from '../tools/tool-file';
import { base64Bytes } from '../adapter-kit/tool-result-files';
import { MAX_FILE_NAME_CHARS, isBase64Data, isFileName, isMediaType, quotedMediaType } from './inline-data-rules';
import { mediaMismatch } from './media-signatures';


/**
 * The function-response parts of the files a tool returned, after checking each one (a `type/subtype`
 * media type, non-empty standard base64 data whose first bytes are what its media type says for the types
 * {@link mediaMismatch} knows, a string name if any) and their size together (data and names). The media
 * type is kept in lower case (media types are compared without case; adapters compare the stored one as
 * it is). Each
 * file's members are read once, and the part is made here from what was checked (never by the file's
 * own `toPart`, nor by reading it again): a getter that answers otherwise the second time, or a replaced
 * `toPart`, cannot put unchecked data into the session.
 *
 * @throws InvalidToolResultError for a file that is not one; ToolFilesTooLargeError over `maxBytes`.
 */
export function fileParts(toolName: string, files: readonly ToolFile[], maxBytes: number): FunctionResponsePart[] {
  let bytes = 0;
  const parts: FunctionResponsePart[] = [];
  for (let index = 0; index < files.length; index++) {
    const file = files[index];
    const which = files.length === 1 ? 'the file' : `file ${index}`;
    const mimeType: unknown = file?.mimeType;
    const data: unknown = file?.data;
    const name: unknown = file?.name;
    if (!isMediaType(mimeType)) {
      throw new InvalidToolResultError(toolName, `${which} has the media type ${quotedMediaType(mimeType)}, not "type/subtype" (e.g. "image/png", at most 127 characters each)`, undefined, 'files');
    }
    if (data === '') throw new InvalidToolResultError(toolName, `the data of ${which} is empty`, undefined, 'files');
    if (!isBase64Data(data)) {
      throw new InvalidToolResultError(toolName, `the data of ${which} is not base64 (give the bytes as a Uint8Array, or base64 text without a "data:" prefix)`, undefined, 'files');
    }
    // Sent to the model on every later turn of the session: bytes the provider refuses as not their type would fail them all.
    const mismatch = mediaMismatch(mimeType, data);
    if (mismatch !== undefined) throw new InvalidToolResultError(toolName, `${which} has data declared ${mimeType} ${mismatch}`, undefined, 'files');
    if (name !== undefined && !isFileName(name)) {
      throw new InvalidToolResultError(toolName, `the name of ${which} is not a string of at most ${MAX_FILE_NAME_CHARS} characters (UTF-16 code units) with no control character, lone surrogate, line separator or bidirectional control`, undefined, 'files');
    }
    bytes += base64Bytes(data) + (name === undefined ? 0 : Buffer.byteLength(name));
    const type = mimeType.toLowerCase();
    parts.push({ inlineData: name === undefined ? { mimeType: type, data } : { mimeType: type, data, displayName: name } });
  }
  if (bytes > maxBytes) throw new ToolFilesTooLargeError(toolName, bytes, maxBytes);
  return parts;
}

/**
 * The function-response parts of the files a result carries (a lone {@link ToolFile}, or a
 * {@link ToolResult}'s files), checked as {@link fileParts} checks them. Files go beside the JSON, never
 * into it: {@link resultJson} is what is checked, budgeted and seen by afterTool.
 */
export function resultFileParts(toolName: string, result: ToolFile | ToolResult, maxBytes: number): FunctionResponsePart[] {
  if (result instanceof ToolFile) return fileParts(toolName, [result], maxBytes);
  const { files } = result;
  if (!Array.isArray(files)) throw new InvalidToolResultError(toolName, `the files of its toolResult are not an array (got ${files === null ? 'null' : typeof files})`, undefined, 'files');
  return fileParts(toolName, files, maxBytes);
}

/** The JSON of a result that carries files: a {@link ToolResult}'s value, `{}` for a lone {@link ToolFile}. */
export function resultJson(result: ToolFile | ToolResult): unknown {
  return result instanceof ToolFile ? {} : result.value;
}
