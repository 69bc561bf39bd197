import { Complete, type OfferingContext, Param, Prompt, Resource, ResourceTemplate, Tool, ToolContext, ToolsmithError, Toolset } from '@toolsmith/core';

/** A dependency of {@link DocsOfferings}, provided through the container. */
export class DocsLibrary {
  constructor(readonly pages: Record<string, string>) {}
}

/**
 * A toolset that offers a tool, resources, a template, prompts and completions from one class built by
 * the container; served by `serveMcp` in serve-mcp-offerings.test.ts.
 */
@Toolset()
export class DocsOfferings {
  constructor(private readonly library: DocsLibrary) {}

  @Tool({ description: 'Remembers a note in the session.' })
  note(@Param('text') text: string, ctx: ToolContext) {
    ctx.state.set('note', text);
    return { saved: text };
  }

  @Resource({ uri: 'docs://readme', title: 'Readme', description: 'The readme.', mimeType: 'text/markdown' })
  readme(ctx: OfferingContext) {
    return `# Readme for ${ctx.userId} (note: ${String(ctx.state.get('note') ?? 'none')})`;
  }

  @Resource({ uri: 'docs://logo', description: 'The logo, as bytes.', mimeType: 'image/png' })
  logo() {
    return new Uint8Array([137, 80, 78, 71]);
  }

  @Resource({ uri: 'docs://raw', description: 'Bytes without a declared type.' })
  raw() {
    return new Uint8Array([1, 2, 3]);
  }

  @Resource({ uri: 'docs://broken', description: 'Fails with an internal detail.' })
  broken(): string {
    throw new Error('connection to postgres://admin:secret@db failed');
  }

  @Resource({ uri: 'docs://refused', description: 'Fails with a Toolsmith error.' })
  refused(): string {
    throw new ToolsmithError('DOCS_LOCKED', 'The docs are locked.');
  }

  @Resource({ uri: 'docs://wrong', description: 'Returns a number.' })
  wrong() {
    return 42;
  }

  @ResourceTemplate({ uriTemplate: 'docs://pages/{page}', description: 'One page.' })
  page(vars: { page: string }) {
    return this.library.pages[vars.page] ?? `No page ${vars.page}.`;
  }

  @Complete({ resourceTemplate: 'docs://pages/{page}', argument: 'page' })
  pageNames(prefix: string) {
    return Object.keys(this.library.pages).filter((name) => name.startsWith(prefix));
  }

  @Prompt({ name: 'explain', description: 'Explain a page.', arguments: [{ name: 'page', required: true }, { name: 'level', description: 'beginner or expert' }] })
  explain(args: { page: string; level?: string }) {
    return `Explain ${args.page} to a ${args.level ?? 'beginner'}: ${this.library.pages[args.page] ?? ''}`;
  }

  @Complete({ prompt: 'explain', argument: 'level' })
  levels(prefix: string, given: Record<string, string>) {
    return ['beginner', 'expert', `for-${given.page ?? 'none'}`].filter((level) => level.startsWith(prefix));
  }

  @Complete({ prompt: 'explain', argument: 'page' })
  manyPages() {
    return Array.from({ length: 150 }, (_, index) => `page-${index}`);
  }
}
