import type { FunctionResponse, InlineData } from '../model/content';

/** The `data:` URL of inline data (`data:image/png;base64,…`), for APIs that take files as URLs. */
export function dataUrl(inlineData: InlineData): string {
  return `data:${inlineData.mimeType};base64,${inlineData.data}`;
}

/** Bytes of base64 `data` (without decoding it); a whole number, for data that is not whole 4-character groups too. */
export function base64Bytes(data: string): number {
  return Math.max(0, Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0));
}

/**
 * A name for a tool's file: its own `displayName`, else `file-<index>` with an extension from the media
 * subtype (`file-0.pdf`), for APIs that want a file name.
 */
export function toolFileName(inlineData: InlineData, index: number): string {
  if (inlineData.displayName) return inlineData.displayName;
  const subtype = inlineData.mimeType.toLowerCase().split('/')[1]?.split(/[;+]/)[0] ?? 'bin';
  return `file-${index}.${subtype}`;
}

/** How a note sent in place of a file words its leaving out. */
export interface FileNoteOptions {
  /**
   * The file is left out of this request only, by a limit on the request (how many images it holds, its size),
   * not on the file: earlier requests may have sent it. The note says it is not sent in this request, not that
   * it was left out.
   */
  readonly thisRequestOnly?: boolean;
}

/** `it was left out`, or for a file left out by a limit on the request, `it is not sent in this request`. */
const leftOut = (options: FileNoteOptions | undefined): string => (options?.thisRequestOnly ? 'it is not sent in this request' : 'it was left out');

/**
 * The text an adapter sends in place of a tool's file its provider cannot take (so the model knows a
 * file was returned and was left out, instead of the request failing). `reason` says why, when it is not
 * the file's type (`'this model takes no audio'`, `'its text is not UTF-8'`); see {@link FileNoteOptions} for a
 * file left out of one request only.
 */
export function unsupportedToolFileNote(inlineData: InlineData, index: number, providerName: string, reason?: string, options?: FileNoteOptions): string {
  const file = `the file ${JSON.stringify(toolFileName(inlineData, index))} (${inlineData.mimeType}, ${bytesText(inlineData.data)})`;
  return reason === undefined ? `[The tool returned ${file}, which ${providerName} cannot take as input; it was left out.]` : `[The tool returned ${file}; ${leftOut(options)}, as ${reason}.]`;
}

/**
 * The text an adapter sends in place of inline data of a message its provider cannot take (a user's file of
 * a type the API refuses): the conversation stays sendable on every later turn, and the model knows a file
 * was attached and left out, instead of every request of the session failing. `reason` says why, when it is not
 * the file's type (`'this model takes no audio'`, `'its text is not UTF-8'`); see {@link FileNoteOptions} for a
 * file left out of one request only.
 */
export function unsupportedInlineDataNote(inlineData: InlineData, providerName: string, reason?: string, options?: FileNoteOptions): string {
  return `[${fileText(inlineData)} was attached here; ${leftOut(options)}, as ${reason ?? `files of this type are not sent to ${providerName} in a message`}.]`;
}

/**
 * The text an adapter sends in place of a file in a model turn (Gemini's image output, a callback's response)
 * its provider takes no files in: nobody attached it, so the note says the model gave it, and why it was left
 * out (`'an assistant turn holds no files'`).
 *
 * @example
 * ```ts
 * modelTurnFileNote({ mimeType: 'image/png', data }, 'an assistant turn holds no files');
 * // '[A file (image/png, 45 bytes) the model gave was here; it was left out, as an assistant turn holds no files.]'
 * ```
 */
export function modelTurnFileNote(inlineData: InlineData, reason: string): string {
  return `[${fileText(inlineData)} the model gave was here; it was left out, as ${reason}.]`;
}

/** `A file "name" (image/png, 45 bytes)`: the name quoted as JSON, so that it cannot close the note's quote or bracket and speak for itself. */
function fileText(inlineData: InlineData): string {
  const name = inlineData.displayName ? ` ${JSON.stringify(inlineData.displayName)}` : '';
  return `A file${name} (${inlineData.mimeType}, ${bytesText(inlineData.data)})`;
}

/** `1 byte`, `1024 bytes`: the size of base64 `data`. */
function bytesText(data: string): string {
  const bytes = base64Bytes(data);
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

/**
 * The text that opens the user message carrying a function response's files, for providers whose
 * tool results can hold no files (they follow the results in a user message of their own).
 */
export function toolFilesIntro(response: Pick<FunctionResponse, 'id' | 'name'>): string {
  return `The files returned by the call ${response.id} of tool "${response.name}":`;
}
