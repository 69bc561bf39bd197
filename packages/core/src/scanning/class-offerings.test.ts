import { Complete } from '../decorators/complete.decorator';
import { Prompt } from '../decorators/prompt.decorator';
import { Resource } from '../decorators/resource.decorator';
import { ResourceTemplate } from '../decorators/resource-template.decorator';
import { loadStandardDecorated } from '../decorators/__fixtures__/load-standard-decorated';
import { OfferingDefinitionError } from '../errors/offering-definition-errors';
import { Toolset } from '../tools/toolset';
import { scanClassOfferings } from './class-offerings';

describe('scanClassOfferings: resources, templates, prompts and completions of a class', () => {
  @Toolset()
  class DocsBase {
    @Resource({ uri: 'docs://readme', mimeType: 'text/markdown', description: 'The readme.' })
    readme() {
      return '# Readme';
    }
  }
  class Docs extends DocsBase {
    @ResourceTemplate({ uriTemplate: 'docs://pages/{page}{?lang}', name: 'page' })
    page(vars: { page: string }) {
      return vars.page;
    }
    @Prompt({ description: 'Summarize a page', arguments: [{ name: 'page', required: true }, { name: 'style' }] })
    summarize(args: { page: string }) {
      return `Summarize ${args.page}`;
    }
    @Complete({ prompt: 'summarize', argument: 'style' })
    styles(prefix: string) {
      return ['short', 'long'].filter((s) => s.startsWith(prefix));
    }
    @Complete({ resourceTemplate: 'docs://pages/{page}{?lang}', argument: 'lang' })
    languages() {
      return ['en', 'fr'];
    }
  }

  it('reads every decorated method (base classes included) with its options, names and template variables', () => {
    const offered = scanClassOfferings(Docs);
    expect(offered.resources.map((r) => [r.methodName, r.name, r.options])).toEqual([
      ['readme', 'readme', { uri: 'docs://readme', mimeType: 'text/markdown', description: 'The readme.' }],
    ]);
    expect(offered.resourceTemplates.map((t) => [t.name, t.variables])).toEqual([['page', ['page', 'lang']]]);
    expect(offered.prompts.map((p) => [p.name, p.arguments.map((a) => a.name)])).toEqual([['summarize', ['page', 'style']]]);
    expect(offered.completions.map((c) => c.methodName)).toEqual(['styles', 'languages']);
    expect(offered.completions[0]!.implementation.call(new Docs(), 's')).toEqual(['short']);
    expect(scanClassOfferings(Docs)).toBe(offered);
  });

  it('offers nothing for a class without those decorators', () => {
    class Plain {
      method() {}
    }
    expect(scanClassOfferings(Plain)).toEqual({ resources: [], resourceTemplates: [], prompts: [], completions: [] });
  });

  const failure = (define: () => Function): OfferingDefinitionError => {
    try {
      scanClassOfferings(define());
    } catch (error) {
      expect(error).toBeInstanceOf(OfferingDefinitionError);
      return error as OfferingDefinitionError;
    }
    throw new Error('no error');
  };

  it.each([
    ['a URI without a scheme', 'INVALID_RESOURCE_URI', /"readme" is not an absolute URI/, () => { class C { @Resource({ uri: 'readme' }) a() {} } return C; }],
    ['a URI with braces', 'INVALID_RESOURCE_URI', /use @ResourceTemplate/, () => { class C { @Resource({ uri: 'docs://{x}' }) a() {} } return C; }],
    ['a URI used twice', 'DUPLICATE_RESOURCE_URI', /C\.b: resource URI "docs:\/\/a" is already offered by C\.a/, () => { class C { @Resource({ uri: 'docs://a' }) a() {} @Resource({ uri: 'docs://a' }) b() {} } return C; }],
    ['an unclosed template', 'INVALID_URI_TEMPLATE', /has a "\{" without its "\}"/, () => { class C { @ResourceTemplate({ uriTemplate: 'docs://{page' }) a() {} } return C; }],
    ['a stray brace', 'INVALID_URI_TEMPLATE', /has a "\}" without its "\{"/, () => { class C { @ResourceTemplate({ uriTemplate: 'docs://page}/{x}' }) a() {} } return C; }],
    ['a bad variable', 'INVALID_URI_TEMPLATE', /variable "pa-ge" is not a name/, () => { class C { @ResourceTemplate({ uriTemplate: 'docs://{pa-ge}' }) a() {} } return C; }],
    ['a repeated variable', 'INVALID_URI_TEMPLATE', /uses the variable "x" twice/, () => { class C { @ResourceTemplate({ uriTemplate: 'docs://{x}/{x}' }) a() {} } return C; }],
    ['a template without variables', 'INVALID_URI_TEMPLATE', /has no variable/, () => { class C { @ResourceTemplate({ uriTemplate: 'docs://page' }) a() {} } return C; }],
    ['a template without a scheme', 'INVALID_URI_TEMPLATE', /does not start with a scheme/, () => { class C { @ResourceTemplate({ uriTemplate: '/pages/{x}' }) a() {} } return C; }],
    ['a template that repeats a resource URI', 'DUPLICATE_RESOURCE_URI', /already offered by C\.a/, () => { class C { @ResourceTemplate({ uriTemplate: 'docs://{x}' }) a() {} @ResourceTemplate({ uriTemplate: 'docs://{x}' }) b() {} } return C; }],
    ['two templates that differ only in a variable name', 'DUPLICATE_RESOURCE_URI', /"docs:\/\/p\/\{b\}" is already offered by C\.a/, () => { class C { @ResourceTemplate({ uriTemplate: 'docs://p/{a}' }) a() {} @ResourceTemplate({ uriTemplate: 'docs://p/{b}' }) b() {} } return C; }],
    ['a bad prompt name', 'INVALID_PROMPT', /prompt name "plan trip" is not usable/, () => { class C { @Prompt({ name: 'plan trip' }) a() {} } return C; }],
    ['a bad argument name', 'INVALID_PROMPT', /argument name "a b" is not usable/, () => { class C { @Prompt({ arguments: [{ name: 'a b' }] }) a() {} } return C; }],
    ['an argument declared twice', 'INVALID_PROMPT', /argument "x" is declared twice/, () => { class C { @Prompt({ arguments: [{ name: 'x' }, { name: 'x' }] }) a() {} } return C; }],
    ['a prompt name used twice', 'DUPLICATE_PROMPT_NAME', /prompt name "p" is already used by C\.a/, () => { class C { @Prompt({ name: 'p' }) a() {} @Prompt({ name: 'p' }) b() {} } return C; }],
    ['a completion of an unknown prompt', 'INVALID_COMPLETION_TARGET', /names prompt "nope", which C does not offer/, () => { class C { @Complete({ prompt: 'nope', argument: 'x' }) a() {} } return C; }],
    ['a completion of an unknown argument', 'INVALID_COMPLETION_TARGET', /names the argument "y", which prompt "p" does not have/, () => { class C { @Prompt({ name: 'p', arguments: [{ name: 'x' }] }) p() {} @Complete({ prompt: 'p', argument: 'y' }) a() {} } return C; }],
    ['a completion of an unknown template variable', 'INVALID_COMPLETION_TARGET', /names the argument "y", which resource template "docs:\/\/\{x\}"/, () => { class C { @ResourceTemplate({ uriTemplate: 'docs://{x}' }) t() {} @Complete({ resourceTemplate: 'docs://{x}', argument: 'y' }) a() {} } return C; }],
    ['two completions of one argument', 'INVALID_COMPLETION_TARGET', /which another method already completes/, () => { class C { @Prompt({ name: 'p', arguments: [{ name: 'x' }] }) p() {} @Complete({ prompt: 'p', argument: 'x' }) a() {} @Complete({ prompt: 'p', argument: 'x' }) b() {} } return C; }],
  ])('refuses %s at scan time (%s)', (_what, code, message, define) => {
    const error = failure(define);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/Fix: /);
  });

  it('reads standard (TC39) decorators the same way', () => {
    type Cls = new (...args: never[]) => unknown;
    const { Docs: StandardDocs } = loadStandardDecorated<{ Docs: Cls }>(`import { Toolset, Resource, ResourceTemplate, Prompt, Complete } from '../../index';
      @Toolset() export class Docs {
        @Resource({ uri: 'docs://readme' }) readme() { return 'hi'; }
        @ResourceTemplate({ uriTemplate: 'docs://pages/{page}' }) page(vars: { page: string }) { return vars.page; }
        @Prompt({ arguments: [{ name: 'page' }] }) summarize() { return 'x'; }
        @Complete({ prompt: 'summarize', argument: 'page' }) pages() { return ['a']; }
      }`);
    const offered = scanClassOfferings(StandardDocs);
    expect([offered.resources[0]!.options.uri, offered.resourceTemplates[0]!.variables, offered.prompts[0]!.name, offered.completions[0]!.methodName]).toEqual([
      'docs://readme',
      ['page'],
      'summarize',
      'pages',
    ]);
    expect(() => loadStandardDecorated(`import { Resource } from '../../index';
      export class Bad { @Resource({ uri: 'docs://x' }) static read() { return ''; } }`)).toThrow(/@Resource\(\) is on the static method read/);
  });
});
