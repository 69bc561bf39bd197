import { INLINE_DATA_SHAPE, inlineDataProblem, mixedPartProblem } from '../internal/inline-data-rules';
import type { Content, InlineData } from '../model/content';
import type { LlmRequest } from '../model/llm-request';
import { setMember } from '../validation/json-copy';

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
 * `processRequest` hook added) is said to be the hook's. What throws when read is said too, in fixed words (not what it threw),
 * and is the hook's when `hooked` is `null` (the contents the hooks left threw when read: see {@link knownFiles}).
 */
export function requestFilesProblem(request: LlmRequest, known: KnownFiles | undefined, hooked?: KnownFiles | null): RequestFilesProblem | undefined {
  let fault: InlineData | 'unreadable' | undefined;
  const reason = filesProblem(request, known, (file) => (fault = file));
  if (reason === undefined) return undefined;
  // Contents the hooks left that could not be read (`hooked` null: a getter or Proxy that throws) are the hooks' fault when reading throws.
  if (fault === 'unreadable') return { reason, byHook: hooked === null };
  return { reason, byHook: fault !== undefined && hooked !== undefined && hooked !== null && knownFile(hooked, fault.mimeType, fault.data, fault.displayName) !== undefined };
}

/**
 * {@link requestFilesProblem}'s walk. Each part with a file is replaced, in a copy of the contents it makes
 * (the callbacks' objects are not written), by a plain copy of what was read and checked: its members read
 * once, its files `{ mimeType, data, displayName? }` as compared or checked, so the adapter reads no getter,
 * Proxy or object a callback still holds again. Contents without files are left as they are.
 */
function filesProblem(request: LlmRequest, known: KnownFiles | undefined, faulty: (file: InlineData | 'unreadable') => void): string | undefined {
  try {
    const contents: unknown = request.contents;
    if (!Array.isArray(contents)) return `its contents are ${describe(contents)}, not an array`;
    let contentsOut: unknown[] | undefined;
    for (let c = 0; c < contents.length; c++) {
      const content: unknown = contents[c];
      if (!isObject(content)) return `content ${c} is ${describe(content)}, not an object`;
      const parts: unknown = content.parts;
      if (!Array.isArray(parts)) return `content ${c} has parts that are ${describe(parts)}, not an array`;
      let partsOut: unknown[] | undefined;
      for (let p = 0; p < parts.length; p++) {
        const part: unknown = parts[p];
        if (!isObject(part)) return `content ${c}, part ${p} is ${describe(part)}, not an object`;
        const inlineData = part.inlineData;
        const response = part.functionResponse;
        if (inlineData !== undefined && inlineData !== null) {
          const checked = checkedFile(inlineData, known, faulty);
          if (typeof checked === 'string') return `content ${c}, part ${p} has inlineData ${checked}`;
          const text = part.text;
          // The rule a user's part follows (not for a file the session holds as it is): adapters send one of them, and the rest would be lost.
          const mixed = checked.known ? undefined : mixedPartProblem(text ?? undefined, response ?? undefined, inlineData);
          if (mixed !== undefined) return `content ${c}, part ${p} ${mixed}`;
          (partsOut ??= parts.slice())[p] = plainMembers(part, { inlineData: checked.file, text, functionResponse: response });
          continue;
        }
        const files = isObject(response) ? response.parts : undefined;
        if (files === undefined || files === null) continue;
        if (!Array.isArray(files)) return `content ${c}, part ${p} has a functionResponse whose parts are ${describe(files)}, not an array`;
        const filesOut: { inlineData: InlineData }[] = new Array(files.length);
        for (let f = 0; f < files.length; f++) {
          const file: unknown = files[f];
          const checked = isObject(file) ? checkedFile(file.inlineData, known, faulty) : `that is not ${INLINE_DATA_SHAPE}`;
          if (typeof checked === 'string') return `content ${c}, part ${p} has a functionResponse whose file ${f} has inlineData ${checked}`;
          filesOut[f] = { inlineData: checked.file };
        }
        const responseOut = plainMembers(response as Record<string, unknown>, { parts: filesOut });
        (partsOut ??= parts.slice())[p] = plainMembers(part, { inlineData, text: part.text, functionResponse: responseOut });
      }
      if (partsOut) (contentsOut ??= contents.slice())[c] = plainMembers(content, { parts: partsOut });
    }
    if (contentsOut) request.contents = contentsOut as Content[];
    return undefined;
  } catch {
    // A getter or a Proxy that throws: what it threw is not repeated (of any length, raw, and stored in the session), as a user's message check says it.
    faulty('unreadable');
    return 'reading its contents threw an error (a getter or a Proxy); leave plain data';
  }
}

/**
 * A plain copy of `value`: its own enumerable members, each read once, and `read`'s (the members already read,
 * or checked) in place of its own of those names; a member that is `undefined` is left out.
 */
function plainMembers(value: Record<string, unknown>, read: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (!Object.prototype.hasOwnProperty.call(read, key)) {
      const member = value[key];
      if (member !== undefined) setMember(copy, key, member);
    }
  }
  for (const key of Object.keys(read)) if (read[key] !== undefined) setMember(copy, key, read[key]);
  return copy;
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
  // Plain, as it is sent in place of the file it equals (`displayName` left out when there is none).
  const file: InlineData = typeof displayName === 'string' ? { mimeType: mimeType as string, data, displayName } : { mimeType: mimeType as string, data };
  const same = files.get(data);
  if (same === undefined) files.set(data, [file]);
  else same.push(file);
}

/** The file of `known` with these members, if any. */
function knownFile(known: KnownFiles, mimeType: unknown, data: unknown, displayName: unknown): InlineData | undefined {
  if (typeof data !== 'string') return undefined;
  return known.get(data)?.find((file) => file.mimeType === mimeType && (file.displayName ?? undefined) === (displayName ?? undefined));
}

/**
 * Inline data as it is sent: a plain copy of its own members, each read once (the file of `known` it equals,
 * which is not checked again, wherever it is now), or what is wrong with it (see `inlineDataProblem`):
 * `{ mimeType, data, displayName? }` with no other member (an adapter may pass it on whole).
 */
function checkedFile(value: unknown, known: KnownFiles | undefined, faulty: (file: InlineData) => void): { file: InlineData; known: boolean } | string {
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
  const same = known === undefined ? undefined : knownFile(known, mimeType, data, displayName);
  if (same !== undefined) return { file: same, known: true };
  const problem = inlineDataProblem(mimeType, data, displayName);
  if (problem !== undefined) {
    faulty({ mimeType: mimeType as string, data: data as string, displayName: displayName as string | undefined });
    return problem;
  }
  const file: InlineData = typeof displayName === 'string' ? { mimeType: mimeType as string, data: data as string, displayName } : { mimeType: mimeType as string, data: data as string };
  return { file, known: false };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
