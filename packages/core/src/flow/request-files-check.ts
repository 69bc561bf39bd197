import { thrownMessage } from '../errors/thrown-message';
import { INLINE_DATA_SHAPE, inlineDataProblem, mixedPartProblem } from '../internal/inline-data-rules';
import type { InlineData } from '../model/content';
import type { LlmRequest } from '../model/llm-request';

/**
 * Files a request held before the callbacks edited it (or the session holds): their members, copied, by
 * their data. A file with the same members is not checked again, wherever it is in the edited request (a
 * callback that drops the oldest content moves every file): it was checked when it was stored, or is an
 * old session's, which a callback did not put there. See {@link knownFiles}.
 */
export type KnownFiles = ReadonlyMap<string, readonly InlineData[]>;

/** What {@link requestFilesProblem} found: why the request is refused, and whether the file was a `processRequest` hook's. */
export interface RequestFilesProblem {
  readonly reason: string;
  /** The file at fault was one of `hooked` (a tool's `processRequest` hook put it there), not a callback's. */
  readonly byHook: boolean;
}

/**
 * What is wrong with the files of `request`'s contents as `beforeModel` callbacks (or, with none,
 * `processRequest` hooks) left them, or `undefined`: each part's `inlineData` and each file of a function
 * response's `parts` must be one a provider can be sent, by the rules a user's file follows (see
 * `inlineDataProblem`: else an adapter fails to convert the request, and the run would end blaming the
 * provider), and the contents and their parts arrays of objects, to find them. A file whose members are
 * those of one of `known` is not checked again, wherever it is: the usual file costs no reading of its
 * bytes. Without `known`, every file is checked. A file at fault that is one of `hooked` (the files a
 * `processRequest` hook added) is said to be the hook's. What throws when read is said too.
 */
export function requestFilesProblem(request: LlmRequest, known: KnownFiles | undefined, hooked?: KnownFiles): RequestFilesProblem | undefined {
  let fault: InlineData | undefined;
  const reason = filesProblem(request, known, (file) => (fault = file));
  if (reason === undefined) return undefined;
  return { reason, byHook: fault !== undefined && hooked !== undefined && isKnown(hooked, fault.mimeType, fault.data, fault.displayName) };
}

function filesProblem(request: LlmRequest, known: KnownFiles | undefined, faulty: (file: InlineData) => void): string | undefined {
  try {
    const contents: unknown = request.contents;
    if (!Array.isArray(contents)) return `its contents are ${describe(contents)}, not an array`;
    for (let c = 0; c < contents.length; c++) {
      const content: unknown = contents[c];
      if (!isObject(content)) return `content ${c} is ${describe(content)}, not an object`;
      const parts: unknown = content.parts;
      if (!Array.isArray(parts)) return `content ${c} has parts that are ${describe(parts)}, not an array`;
      for (let p = 0; p < parts.length; p++) {
        const part: unknown = parts[p];
        if (!isObject(part)) return `content ${c}, part ${p} is ${describe(part)}, not an object`;
        const inlineData = part.inlineData;
        const response = part.functionResponse;
        if (inlineData !== undefined && inlineData !== null) {
          const problem = fileProblem(inlineData, known, faulty);
          if (problem === undefined) {
            // The rule a user's part follows (not for a file the session holds as it is): adapters send one of them, and the rest would be lost.
            const mixed = mixedPartProblem(part.text ?? undefined, response ?? undefined, inlineData);
            if (mixed !== undefined) return `content ${c}, part ${p} ${mixed}`;
          } else if (problem !== KNOWN) return `content ${c}, part ${p} has inlineData ${problem}`;
        }
        const files = isObject(response) ? response.parts : undefined;
        if (files === undefined || files === null) continue;
        if (!Array.isArray(files)) return `content ${c}, part ${p} has a functionResponse whose parts are ${describe(files)}, not an array`;
        for (let f = 0; f < files.length; f++) {
          const file: unknown = files[f];
          const problem = isObject(file) ? fileProblem(file.inlineData, known, faulty) : `that is not ${INLINE_DATA_SHAPE}`;
          if (problem !== undefined && problem !== KNOWN) return `content ${c}, part ${p} has a functionResponse whose file ${f} has inlineData ${problem}`;
        }
      }
    }
    return undefined;
  } catch (thrown) {
    return `reading its contents threw: ${thrownMessage(thrown)}`;
  }
}

/**
 * The files of `contents` (a request's before callbacks edit it, or the session's conversation), their
 * members copied (so an edit in place of a file is seen), by their data: what {@link requestFilesProblem}
 * does not check again. `undefined` when they cannot be read (a processRequest hook's odd contents): every
 * file is then checked.
 */
export function knownFiles(contents: unknown): KnownFiles | undefined {
  try {
    if (!Array.isArray(contents)) return undefined;
    const files = new Map<string, InlineData[]>();
    for (let c = 0; c < contents.length; c++) {
      const content: unknown = contents[c];
      const parts: unknown = isObject(content) ? content.parts : undefined;
      if (!Array.isArray(parts)) continue;
      for (let p = 0; p < parts.length; p++) {
        const part: unknown = parts[p];
        if (!isObject(part)) continue;
        addFile(files, part.inlineData);
        const response = part.functionResponse;
        const responseFiles = isObject(response) ? response.parts : undefined;
        if (Array.isArray(responseFiles)) for (const file of responseFiles as unknown[]) if (isObject(file)) addFile(files, file.inlineData);
      }
    }
    return files;
  } catch {
    return undefined;
  }
}

/** Adds a file's three members, copied, under its data (a string; anything else is not a file to know). */
function addFile(files: Map<string, InlineData[]>, value: unknown): void {
  if (!isObject(value)) return;
  const { mimeType, data, displayName } = value;
  if (typeof data !== 'string') return;
  const file = { mimeType: mimeType as string, data, displayName: displayName as string | undefined };
  const same = files.get(data);
  if (same === undefined) files.set(data, [file]);
  else same.push(file);
}

/** True when `known` holds a file with these members. */
function isKnown(known: KnownFiles, mimeType: unknown, data: unknown, displayName: unknown): boolean {
  if (typeof data !== 'string') return false;
  const same = known.get(data);
  return same !== undefined && same.some((file) => file.mimeType === mimeType && file.displayName === displayName);
}

/**
 * What is wrong with inline data (see `inlineDataProblem`), its own members each read once: `{ mimeType,
 * data, displayName? }` with no other member (an adapter may pass it on whole). Not checked again when its
 * members are those of a file of `known` (a file the request held, wherever it is now): {@link KNOWN}.
 */
/** What {@link fileProblem} says of a file of `known`: not checked again. */
const KNOWN = 'known';

function fileProblem(value: unknown, known: KnownFiles | undefined, faulty: (file: InlineData) => void): string | undefined {
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
  if (known !== undefined && isKnown(known, mimeType, data, displayName)) return KNOWN;
  const problem = inlineDataProblem(mimeType, data, displayName);
  if (problem !== undefined) faulty({ mimeType: mimeType as string, data: data as string, displayName: displayName as string | undefined });
  return problem;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
