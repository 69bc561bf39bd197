import { thrownMessage } from '../errors/thrown-message';
import { INLINE_DATA_SHAPE, inlineDataProblem } from '../internal/inline-data-rules';
import type { InlineData } from '../model/content';
import type { LlmRequest } from '../model/llm-request';

/**
 * A request's files where they are, by content and part index: a part's inline data and its function
 * response's files. A request's own contents are one (a `Content[]`); {@link filesOf} makes one of
 * contents that are about to be edited.
 */
export type RequestFiles = readonly ({ readonly parts: readonly (FilesOfPart | undefined)[] } | undefined)[];

interface FilesOfPart {
  readonly inlineData?: InlineData;
  readonly functionResponse?: { readonly parts?: readonly ({ readonly inlineData?: InlineData } | undefined)[] };
}

/**
 * What is wrong with the files of `request`'s contents as `beforeModel` callbacks left them, or `undefined`:
 * each part's `inlineData` and each file of a function response's `parts` must be one a provider can be
 * sent, by the rules a user's file follows (see `inlineDataProblem`: else an adapter fails to convert the
 * request, and the run would end blaming the provider), and the contents and their parts arrays of objects,
 * to find them. A file whose members equal those of the file at the same place in `before` (the files before
 * the callbacks ran) is not checked again: the usual file, left as it was, costs no reading of its bytes.
 * Without `before`, every file is checked. What throws when read is said too.
 */
export function requestFilesProblem(request: LlmRequest, before: RequestFiles | undefined): string | undefined {
  try {
    const contents: unknown = request.contents;
    if (!Array.isArray(contents)) return `its contents are ${describe(contents)}, not an array`;
    for (let c = 0; c < contents.length; c++) {
      const content: unknown = contents[c];
      if (!isObject(content)) return `content ${c} is ${describe(content)}, not an object`;
      const parts: unknown = content.parts;
      if (!Array.isArray(parts)) return `content ${c} has parts that are ${describe(parts)}, not an array`;
      const partsBefore = before?.[c]?.parts;
      for (let p = 0; p < parts.length; p++) {
        const part: unknown = parts[p];
        if (!isObject(part)) return `content ${c}, part ${p} is ${describe(part)}, not an object`;
        const partBefore = partsBefore?.[p];
        const inlineData = part.inlineData;
        if (inlineData !== undefined && inlineData !== null) {
          const problem = fileProblem(inlineData, partBefore?.inlineData);
          if (problem !== undefined) return `content ${c}, part ${p} has inlineData ${problem}`;
        }
        const response = part.functionResponse;
        const files = isObject(response) ? response.parts : undefined;
        if (files === undefined || files === null) continue;
        if (!Array.isArray(files)) return `content ${c}, part ${p} has a functionResponse whose parts are ${describe(files)}, not an array`;
        const filesBefore = partBefore?.functionResponse?.parts;
        for (let f = 0; f < files.length; f++) {
          const file: unknown = files[f];
          const problem = isObject(file) ? fileProblem(file.inlineData, filesBefore?.[f]?.inlineData) : `that is not ${INLINE_DATA_SHAPE}`;
          if (problem !== undefined) return `content ${c}, part ${p} has a functionResponse whose file ${f} has inlineData ${problem}`;
        }
      }
    }
    return undefined;
  } catch (thrown) {
    return `reading its contents threw: ${thrownMessage(thrown)}`;
  }
}

/**
 * The files of `contents` (a request's, before callbacks edit it in place), their members copied: what
 * {@link requestFilesProblem} compares the edited files with. `undefined` when they cannot be read (a
 * processRequest hook's odd contents): every file is then checked.
 */
export function filesOf(contents: unknown): RequestFiles | undefined {
  try {
    if (!Array.isArray(contents)) return undefined;
    const files: ({ parts: (FilesOfPart | undefined)[] } | undefined)[] = new Array(contents.length);
    for (let c = 0; c < contents.length; c++) {
      const content: unknown = contents[c];
      const parts: unknown = isObject(content) ? content.parts : undefined;
      if (!Array.isArray(parts)) continue;
      let found: (FilesOfPart | undefined)[] | undefined;
      for (let p = 0; p < parts.length; p++) {
        const part: unknown = parts[p];
        if (!isObject(part)) continue;
        const inlineData = fileMembers(part.inlineData);
        const response = part.functionResponse;
        const responseFiles = isObject(response) ? response.parts : undefined;
        if (inlineData === undefined && !Array.isArray(responseFiles)) continue;
        const filesOfPart: { inlineData?: InlineData; functionResponse?: FilesOfPart['functionResponse'] } = {};
        if (inlineData !== undefined) filesOfPart.inlineData = inlineData;
        if (Array.isArray(responseFiles)) filesOfPart.functionResponse = { parts: responseFiles.map((file: unknown) => ({ inlineData: isObject(file) ? fileMembers(file.inlineData) : undefined })) };
        (found ??= [])[p] = filesOfPart;
      }
      if (found) files[c] = { parts: found };
    }
    return files;
  } catch {
    return undefined;
  }
}

/** A file's three members, copied (so an edit in place of the file is seen); `undefined` for what is no object. */
function fileMembers(value: unknown): InlineData | undefined {
  if (!isObject(value)) return undefined;
  return { mimeType: value.mimeType as string, data: value.data as string, displayName: value.displayName as string | undefined };
}

/**
 * What is wrong with inline data (see `inlineDataProblem`), its own members each read once: `{ mimeType,
 * data, displayName? }` with no other member (an adapter may pass it on whole). Not checked again when its
 * members are those of `before` (the same file, left as it was).
 */
function fileProblem(value: unknown, before: InlineData | undefined): string | undefined {
  if (!isObject(value) || Array.isArray(value)) return `that is not ${INLINE_DATA_SHAPE}`;
  let mimeType: unknown;
  let data: unknown;
  let displayName: unknown;
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (member === undefined) continue;
    if (key === 'mimeType') mimeType = member;
    else if (key === 'data') data = member;
    else if (key === 'displayName') displayName = member;
    else return `that is not ${INLINE_DATA_SHAPE}`;
  }
  if (before !== undefined && mimeType === before.mimeType && data === before.data && displayName === before.displayName) return undefined;
  return inlineDataProblem(mimeType, data, displayName);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
