import { readFileSync, writeFileSync } from 'node:fs';
import { CONSTRAINT_NOTE_PREFIX } from '../../adapter-kit/constraint-note';
import { schemaProblems } from '../../adapter-kit/schema-problems';
import { ToolsmithError } from '../../errors/toolsmith-error';
import type { FunctionDeclaration } from '../../model/function-declaration';
import type { Model } from '../../model/model';
import { validatorFor } from '../../validation/schema-validator';
import { SCHEMA_CONSTRUCTS, type SchemaConstruct } from './schema-constructs';

/** What a provider dialect does with one construct: sends it as is, rewrites it, or refuses it at startup. */
export type GridOutcome = 'as is' | 'rewritten' | 'refused';

/** Options of {@link runDialectGrid}. */
export interface DialectGridOptions {
  /** The dialect's column in the docs table, e.g. `OpenAI strict (Chat)`. */
  dialect: string;
  /** How the provider is named in refusals, e.g. `OpenAI`. */
  providerName: string;
  /** The adapter's model in this dialect; it must implement `checkTools`. Never asked to generate. */
  createModel(): Model;
  /** What the adapter puts on the wire for this declaration's parameters (called only when `checkTools` passed). */
  sentSchema(declaration: FunctionDeclaration): unknown;
  /** The provider's documented rules, encoded independently of the adapter: the problems of what is sent (empty = accepted). */
  rules(sent: unknown, declaration: FunctionDeclaration): string[];
  /** The outcome the adapter promises per construct id (every construct of {@link SCHEMA_CONSTRUCTS}). */
  expected: Record<string, GridOutcome>;
  /** A markdown file whose grid table has a column named `dialect` to keep equal to the outcomes; `UPDATE_PROVIDER_GRID=1` rewrites that column. */
  docPath?: string;
}

interface Cell {
  outcome: GridOutcome;
  /** For the docs: which keywords moved into the description, or the refusal's code. */
  how: string;
  error?: ToolsmithError;
  sent?: unknown;
}

/**
 * Declares (jest) the provider dialect grid for one dialect: every construct of
 * {@link SCHEMA_CONSTRUCTS} is offered to the adapter's `checkTools`; a refusal must be a
 * `ToolsmithError` naming the tool, the provider and a fix; anything else is built as the adapter would
 * send it and must pass the provider's documented `rules`. A construct whose constraints moved into the
 * description is "rewritten", and the original constraint must still be enforced by Toolsmith's own
 * validation on a call. Outcomes must equal `expected`, and the `docPath` table's column.
 */
export function runDialectGrid(options: DialectGridOptions): void {
  const model = options.createModel();
  const cells = new Map<string, Cell>();
  const cellOf = (construct: SchemaConstruct): Cell => {
    let cell = cells.get(construct.id);
    if (!cell) cells.set(construct.id, (cell = evaluate(model, options, construct)));
    return cell;
  };

  describe(`${options.dialect}: dialect grid`, () => {
    it('has an expected outcome for every construct', () => {
      expect(Object.keys(options.expected).sort()).toEqual(SCHEMA_CONSTRUCTS.map((construct) => construct.id).sort());
    });

    it.each(SCHEMA_CONSTRUCTS.map((construct) => [construct.id, construct] as const))('%s', (_id, construct) => {
      const cell = cellOf(construct);
      expect(cell.outcome).toBe(options.expected[construct.id]);
      if (cell.outcome === 'refused') {
        const message = cell.error!.message;
        expect(message).toContain(`"${construct.declaration.name}"`);
        expect(message).toContain(options.providerName);
        expect(message).toMatch(/Fix:|Change the schema|Simplify the schema/i);
        return;
      }
      expect(options.rules(cell.sent, construct.declaration)).toEqual([]);
      if (construct.invalid) {
        // Whatever the provider was told, Toolsmith's validation of the call still holds the line.
        expect(validatorFor(construct.declaration.parameters)(construct.invalid.args)).toBe(false);
        const { path } = construct.invalid;
        if (path !== undefined) expect(schemaProblems(construct.declaration.parameters, construct.invalid.args).map((problem) => problem.path)).toContain(path);
      }
    });

    if (options.docPath) {
      it(`matches the "${options.dialect}" column of ${options.docPath.split('/').slice(-2).join('/')}`, () => {
        const rendered = new Map(SCHEMA_CONSTRUCTS.map((construct) => [construct.id, render(cellOf(construct))]));
        if (process.env.UPDATE_PROVIDER_GRID === '1') writeColumn(options.docPath!, options.dialect, rendered);
        expect(readColumn(options.docPath!, options.dialect)).toEqual(Object.fromEntries(rendered));
      });
    }
  });
}

function evaluate(model: Model, options: DialectGridOptions, construct: SchemaConstruct): Cell {
  if (!model.checkTools) throw new Error(`${options.dialect}: the model has no checkTools`);
  try {
    model.checkTools([construct.declaration]);
  } catch (error) {
    if (!ToolsmithError.isInstance(error)) throw error;
    return { outcome: 'refused', how: error.code, error };
  }
  const sent = options.sentSchema(construct.declaration);
  const moved = movedKeywords(sent);
  return moved.length ? { outcome: 'rewritten', how: moved.join(', '), sent } : { outcome: 'as is', how: '', sent };
}

/** The keywords named in constraint notes anywhere in what is sent. */
function movedKeywords(sent: unknown): string[] {
  const keywords = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node === 'string') {
      for (let at = node.indexOf(CONSTRAINT_NOTE_PREFIX); at >= 0; at = node.indexOf(CONSTRAINT_NOTE_PREFIX, at + 1)) {
        const rest = node.slice(at + CONSTRAINT_NOTE_PREFIX.length).trimStart();
        for (const keyword of Object.keys(JSON.parse(rest.slice(0, closingBrace(rest) + 1)) as object)) keywords.add(keyword);
      }
    } else if (typeof node === 'object' && node !== null) Object.values(node).forEach(visit);
  };
  visit(sent);
  return [...keywords].sort();
}

/** Index of the brace closing the JSON object `text` starts with. */
function closingBrace(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return i;
  }
  return text.length - 1;
}

function render(cell: Cell): string {
  if (cell.outcome === 'as is') return 'as is';
  if (cell.outcome === 'rewritten') return `rewritten: ${cell.how} → description`;
  return `refused: ${cell.how}`;
}

/** The grid table: the one whose header starts with `| construct |`; rows are keyed by the construct id in backticks. */
function readTable(path: string): { lines: string[]; header: number; columns: string[] } {
  const lines = readFileSync(path, 'utf8').split('\n');
  const header = lines.findIndex((line) => line.startsWith('| construct |'));
  if (header < 0) throw new Error(`${path} has no grid table (a header starting with "| construct |")`);
  return { lines, header, columns: cellsOf(lines[header]) };
}

function cellsOf(line: string): string[] {
  return line.slice(1, line.lastIndexOf('|')).split('|').map((cell) => cell.trim());
}

function readColumn(path: string, dialect: string): Record<string, string> {
  const { lines, header, columns } = readTable(path);
  const column = columns.indexOf(dialect);
  if (column < 0) throw new Error(`${path}'s grid table has no column "${dialect}"`);
  const out: Record<string, string> = {};
  for (let i = header + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    const cells = cellsOf(lines[i]);
    const id = /`([^`]+)`/.exec(cells[0])?.[1];
    if (id) out[id] = cells[column];
  }
  return out;
}

function writeColumn(path: string, dialect: string, rendered: Map<string, string>): void {
  const { lines, header, columns } = readTable(path);
  const column = columns.indexOf(dialect);
  if (column < 0) throw new Error(`${path}'s grid table has no column "${dialect}"`);
  for (let i = header + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    const cells = cellsOf(lines[i]);
    const id = /`([^`]+)`/.exec(cells[0])?.[1];
    if (!id || !rendered.has(id)) continue;
    cells[column] = rendered.get(id)!;
    lines[i] = `| ${cells.join(' | ')} |`;
  }
  writeFileSync(path, lines.join('\n'));
}
