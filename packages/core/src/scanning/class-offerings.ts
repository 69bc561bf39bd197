import type { CompleteOptions } from '../decorators/complete.decorator';
import type { PromptArgument, PromptOptions } from '../decorators/prompt.decorator';
import type { ResourceOptions } from '../decorators/resource.decorator';
import type { ResourceTemplateOptions } from '../decorators/resource-template.decorator';
import { getOwnMemberMetadata } from '../decorators/standard-decorators';
import { OfferingDefinitionError } from '../errors/offering-definition-errors';
import {
  type DefinitionSite,
  duplicatePromptNameMessage,
  duplicateResourceUriMessage,
  invalidCompletionTargetMessage,
  invalidPromptMessage,
  invalidResourceUriMessage,
  invalidUriTemplateMessage,
} from '../errors/messages';
import { COMPLETE_METADATA, PROMPT_METADATA, RESOURCE_METADATA, RESOURCE_TEMPLATE_METADATA } from '../metadata-keys';
import { uriTemplateShape, uriTemplateVariables } from './uri-template-variables';

/** One decorated method of a class: its name, the decorator's options and the function a request runs. */
export interface OfferedMethod<O> {
  /** The method's name. */
  readonly methodName: string;
  /** What its decorator recorded. */
  readonly options: O;
  /** The most derived definition of the method (an undecorated override runs in place of the base's). */
  readonly implementation: (...args: unknown[]) => unknown;
}

/** A `@Resource` method, with its name resolved. */
export interface OfferedResource extends OfferedMethod<ResourceOptions> {
  /** `options.name`, else the method name. */
  readonly name: string;
}

/** A `@ResourceTemplate` method, with its name and the template's variables. */
export interface OfferedResourceTemplate extends OfferedMethod<ResourceTemplateOptions> {
  /** `options.name`, else the method name. */
  readonly name: string;
  /** The template's variable names, in order. */
  readonly variables: readonly string[];
}

/** A `@Prompt` method, with its name and arguments resolved. */
export interface OfferedPrompt extends OfferedMethod<PromptOptions> {
  /** `options.name`, else the method name. */
  readonly name: string;
  /** Its arguments (none when it declares none). */
  readonly arguments: readonly PromptArgument[];
}

/** A `@Complete` method. */
export type OfferedCompletion = OfferedMethod<CompleteOptions>;

/**
 * What a class offers besides tools: resources, resource templates, prompts and completions, read from
 * its decorators (base classes included). Provider- and protocol-neutral; a server package maps it.
 */
export interface ClassOfferings {
  /** `@Resource` methods. */
  readonly resources: readonly OfferedResource[];
  /** `@ResourceTemplate` methods. */
  readonly resourceTemplates: readonly OfferedResourceTemplate[];
  /** `@Prompt` methods. */
  readonly prompts: readonly OfferedPrompt[];
  /** `@Complete` methods. */
  readonly completions: readonly OfferedCompletion[];
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const RESOURCE_URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s{}]*$/;
const cache = new WeakMap<Function, ClassOfferings>();

/**
 * Reads and checks what a class offers besides tools (cached per class).
 *
 * @throws {OfferingDefinitionError} for a URI that is not absolute, a bad URI template, a URI, template or
 * prompt name used twice, a bad prompt or argument name, or a `@Complete` of something the class does not offer.
 */
export function scanClassOfferings(cls: Function): ClassOfferings {
  const cached = cache.get(cls);
  if (cached) return cached;
  const className = cls.name || '<anonymous class>';
  const site = (methodName: string): DefinitionSite => ({ className, methodName });

  const resources: OfferedResource[] = [];
  const uris = new Map<string, string>();
  // Keyed by shape: two templates that differ only in their variables' names match the same URIs.
  const claimUri = (uri: string, methodName: string) => {
    const key = uriTemplateShape(uri);
    const first = uris.get(key);
    if (first !== undefined) throw new OfferingDefinitionError('DUPLICATE_RESOURCE_URI', duplicateResourceUriMessage(site(methodName), uri, `${className}.${first}`), site(methodName));
    uris.set(key, methodName);
  };
  for (const method of decoratedMethods<ResourceOptions>(cls, RESOURCE_METADATA)) {
    if (typeof method.options.uri !== 'string' || !RESOURCE_URI.test(method.options.uri)) {
      throw new OfferingDefinitionError('INVALID_RESOURCE_URI', invalidResourceUriMessage(site(method.methodName), String(method.options.uri)), site(method.methodName));
    }
    claimUri(method.options.uri, method.methodName);
    resources.push({ ...method, name: method.options.name ?? method.methodName });
  }

  const resourceTemplates: OfferedResourceTemplate[] = [];
  for (const method of decoratedMethods<ResourceTemplateOptions>(cls, RESOURCE_TEMPLATE_METADATA)) {
    const template = String(method.options.uriTemplate);
    const parsed = uriTemplateVariables(template);
    const problem = 'problem' in parsed ? parsed.problem : /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(template) ? undefined : 'does not start with a scheme (scheme:…)';
    if (problem !== undefined || 'problem' in parsed) {
      throw new OfferingDefinitionError('INVALID_URI_TEMPLATE', invalidUriTemplateMessage(site(method.methodName), template, problem ?? ''), site(method.methodName));
    }
    claimUri(template, method.methodName);
    resourceTemplates.push({ ...method, name: method.options.name ?? method.methodName, variables: parsed.variables });
  }

  const prompts: OfferedPrompt[] = [];
  const promptNames = new Map<string, string>();
  for (const method of decoratedMethods<PromptOptions>(cls, PROMPT_METADATA)) {
    const name = method.options.name ?? method.methodName;
    const at = site(method.methodName);
    if (!NAME.test(name)) throw new OfferingDefinitionError('INVALID_PROMPT', invalidPromptMessage(at, `prompt name "${name}" is not usable`), at);
    const first = promptNames.get(name);
    if (first !== undefined) throw new OfferingDefinitionError('DUPLICATE_PROMPT_NAME', duplicatePromptNameMessage(at, name, `${className}.${first}`), at);
    promptNames.set(name, method.methodName);
    const args = method.options.arguments ?? [];
    const seen = new Set<string>();
    for (const arg of args) {
      if (typeof arg?.name !== 'string' || !NAME.test(arg.name)) throw new OfferingDefinitionError('INVALID_PROMPT', invalidPromptMessage(at, `argument name "${String(arg?.name)}" is not usable`), at);
      if (seen.has(arg.name)) throw new OfferingDefinitionError('INVALID_PROMPT', invalidPromptMessage(at, `argument "${arg.name}" is declared twice`), at);
      seen.add(arg.name);
    }
    prompts.push({ ...method, name, arguments: args });
  }

  const completions: OfferedCompletion[] = [];
  const completed = new Set<string>();
  for (const method of decoratedMethods<CompleteOptions>(cls, COMPLETE_METADATA)) {
    const at = site(method.methodName);
    const fail = (problem: string) => new OfferingDefinitionError('INVALID_COMPLETION_TARGET', invalidCompletionTargetMessage(at, problem), at);
    const options = method.options;
    let names: readonly string[] | undefined;
    let target: string;
    if ('prompt' in options) {
      target = `prompt "${options.prompt}"`;
      names = prompts.find((p) => p.name === options.prompt)?.arguments.map((a) => a.name);
    } else {
      target = `resource template "${options.resourceTemplate}"`;
      names = resourceTemplates.find((t) => t.options.uriTemplate === options.resourceTemplate)?.variables;
    }
    if (!names) throw fail(`names ${target}, which ${className} does not offer`);
    if (!names.includes(options.argument)) throw fail(`names the argument "${options.argument}", which ${target} does not have`);
    const key = `${target} ${options.argument}`;
    if (completed.has(key)) throw fail(`completes the argument "${options.argument}" of ${target}, which another method already completes`);
    completed.add(key);
    completions.push(method);
  }

  const offerings = { resources, resourceTemplates, prompts, completions };
  cache.set(cls, offerings);
  return offerings;
}

/** The methods of a class (base classes included, the most derived decoration winning) that carry `key`. */
function decoratedMethods<O>(cls: Function, key: string): OfferedMethod<O>[] {
  const implementations = new Map<string, (...args: unknown[]) => unknown>();
  const declared = new Set<string>();
  const methods: OfferedMethod<O>[] = [];
  for (let proto: object | null = cls.prototype as object; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || declared.has(name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (!descriptor || typeof descriptor.value !== 'function') continue;
      if (!implementations.has(name)) implementations.set(name, descriptor.value);
      const options = getOwnMemberMetadata<O>(key, proto, name);
      if (!options) continue;
      declared.add(name);
      methods.push({ methodName: name, options, implementation: implementations.get(name)! });
    }
  }
  return methods;
}
