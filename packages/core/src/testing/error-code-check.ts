import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Input of {@link errorCodeProblems}. */
export interface ErrorCodeCheckInput {
  /** The package's name, as its section in the docs is headed (`## @toolsmith/openai`). */
  packageName: string;
  /** The package's own codes (its `*_ERROR_CODES` record). */
  codes: Readonly<Record<string, string>>;
  /** Codes the package reports but another package owns (an adapter's `RATE_LIMITED` is core's). */
  inherited?: Readonly<Record<string, string>>;
  /** The package's `src` folder; tests, fixtures and `testing/` helpers are not read. */
  sourceDir: string;
  /** The error-code page (docs/errors.md). */
  docsFile: string;
  /** Upper-case literals in the sources that are not error codes (environment variables, tokens, provider values). */
  notCodes?: readonly string[];
  /**
   * Also require the docs' description of each of the package's codes to be its list's description word
   * for word (spans show the list's text at runtime, so the two must say the same thing).
   */
  sameDescriptions?: boolean;
}

const CODE_LITERAL = /['"]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"]/g;

/**
 * What is wrong with a package's error codes, as readable lines (empty when nothing is): a code-like
 * literal in the sources that is not in the package's list, a listed code its docs section leaves out,
 * or a code the section lists that no longer exists (and, with `sameDescriptions`, a code the section
 * describes otherwise than the list). Used by each package's `error-codes.test.ts`.
 */
export function errorCodeProblems(input: ErrorCodeCheckInput): string[] {
  const problems: string[] = [];
  const known = new Set([...Object.keys(input.codes), ...Object.keys(input.inherited ?? {}), ...(input.notCodes ?? [])]);
  for (const file of sourceFiles(input.sourceDir)) {
    for (const match of readFileSync(file, 'utf8').matchAll(CODE_LITERAL)) {
      if (!known.has(match[1])) problems.push(`${file}: "${match[1]}" is not a code of ${input.packageName} (add it to its list, or to notCodes)`);
    }
  }
  const section = docsSection(readFileSync(input.docsFile, 'utf8'), input.packageName);
  if (section === undefined) return [...problems, `${input.docsFile} has no "## ${input.packageName}" section`];
  const documented = new Set([...section.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]));
  for (const code of Object.keys(input.codes)) if (!documented.has(code)) problems.push(`${input.docsFile}: ${input.packageName} does not list ${code}`);
  if (input.sameDescriptions) {
    for (const [, code, described] of section.matchAll(/^\| `([A-Z0-9_]+)` \| (.*) \|$/gm)) {
      const listed = input.codes[code];
      if (listed !== undefined && listed !== described) problems.push(`${input.docsFile}: ${input.packageName} describes ${code} as "${described}", its list as "${listed}"`);
    }
  }
  for (const code of documented) if (!(code in input.codes)) problems.push(`${input.docsFile}: ${input.packageName} lists ${code}, which it does not report`);
  return problems;
}

function docsSection(doc: string, packageName: string): string | undefined {
  const start = doc.indexOf(`\n## ${packageName}\n`);
  if (start === -1) return undefined;
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__fixtures__' && entry.name !== 'testing' && entry.name !== 'fuzz') yield* sourceFiles(path);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.generated.ts')) {
      yield path;
    }
  }
}
