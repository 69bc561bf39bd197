import type { ArgumentRepair } from '../model/content';

/** Arguments text after the text repairs, and the repairs that were made. */
export interface RepairedArgumentText {
  text: string;
  repairs: ArgumentRepair[];
}

const FENCE = /^\s*```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?[ \t]*```\s*$/;

/**
 * `code-fence`: arguments wrapped in a Markdown code fence (```` ```json … ``` ````) lose the fence.
 * Returns `undefined` when the text is not one fenced block.
 */
export function stripCodeFence(text: string): string | undefined {
  const match = FENCE.exec(text);
  return match ? match[1] : undefined;
}

/**
 * `trailing-comma`: commas directly before a closing `}` or `]` (outside strings) are dropped.
 * Returns `undefined` when there are none.
 */
export function removeTrailingCommas(text: string): string | undefined {
  let out = '';
  let changed = false;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === ',') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j])) j++;
      if (text[j] === '}' || text[j] === ']') {
        changed = true;
        continue;
      }
    }
    out += c;
  }
  return changed ? out : undefined;
}

/**
 * `double-encoded-arguments`: the whole arguments object sent as a JSON string of itself
 * (`"{\"city\":\"Paris\"}"`). Returns the inner text when `text` is a JSON string holding an object.
 */
export function decodeDoubleEncodedText(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'string' && /^\s*\{/.test(value) ? value : undefined;
}

/**
 * The text repairs, in order, for arguments text that is not a JSON object: a code fence, then trailing
 * commas, then double encoding (whose inner text gets the same two repairs). Each is applied only where
 * it changes something; the result still goes through the argument parser and its limits. Returns
 * `undefined` when no repair applies: the original parse error stands.
 */
export function repairArgumentText(text: string): RepairedArgumentText | undefined {
  const repairs: ArgumentRepair[] = [];
  let current = fixSyntax(text, repairs);
  const inner = decodeDoubleEncodedText(current);
  if (inner !== undefined) {
    repairs.push({ repair: 'double-encoded-arguments', path: '' });
    current = fixSyntax(inner, repairs);
  }
  return repairs.length > 0 ? { text: current, repairs } : undefined;
}

function fixSyntax(text: string, repairs: ArgumentRepair[]): string {
  let current = text;
  const unfenced = stripCodeFence(current);
  if (unfenced !== undefined) {
    repairs.push({ repair: 'code-fence', path: '' });
    current = unfenced;
  }
  if (!parses(current)) {
    const uncommaed = removeTrailingCommas(current);
    if (uncommaed !== undefined) {
      repairs.push({ repair: 'trailing-comma', path: '' });
      current = uncommaed;
    }
  }
  return current;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
