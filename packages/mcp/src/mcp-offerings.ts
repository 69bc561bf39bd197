import { randomUUID } from 'node:crypto';
import {
  type BlobResourceContents,
  type CompleteResult,
  type GetPromptResult,
  type PromptMessage as McpPromptMessage,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  type Server,
  type TextResourceContents,
  UriTemplate,
} from '@modelcontextprotocol/server';
import { type OfferingContext, type PromptMessage, type ResourceContents, State, ToolFile, ToolsmithError, reportableError } from '@toolsmith/core';
import type { OfferedMethod } from '@toolsmith/core/internal';
import type { McpRequestExtra } from './mcp-request-extra';
import type { ResourceSubscriptions } from './resource-subscriptions';
import type { ServedOffering, ServedOfferings } from './served-offerings';

/** The context of one request for a resource, prompt or completion: who asks, in which session, its state and signal. */
export type OfferingContextFor = (extra: McpRequestExtra) => Promise<{ context: OfferingContext; done: () => void }>;

/** Most suggestions one `completion/complete` answer carries (MCP's limit); `total` and `hasMore` tell the rest. */
const MAX_COMPLETIONS = 100;

/**
 * Serves what the classes offer besides tools on `server` (both eras): `resources/list`,
 * `resources/templates/list`, `resources/read`, `prompts/list`, `prompts/get` and `completion/complete`.
 * Unknown URIs and prompts, arguments they do not have, and missing required arguments, are JSON-RPC errors (`-32602`); a method that
 * throws answers `-32603` with a generic message, or a Toolsmith error's own message and code (`data.code`).
 */
export function registerOfferingHandlers(server: Server, offerings: ServedOfferings, contextFor: OfferingContextFor): void {
  const templates = offerings.resourceTemplates.map((served) => ({ served, matcher: new UriTemplate(served.offered.options.uriTemplate) }));
  const withContext = async <T>(extra: McpRequestExtra, what: string, run: (context: OfferingContext) => Promise<T>): Promise<T> => {
    const { context, done } = await contextFor(extra);
    try {
      return await run(context);
    } catch (thrown) {
      if (thrown instanceof ProtocolError) throw thrown;
      const reported = reportableError(thrown);
      if (reported) throw new ProtocolError(ProtocolErrorCode.InternalError, reported.message, { code: reported.code });
      // A method's own error may carry internals (paths, queries): the client gets only what failed.
      throw new ProtocolError(ProtocolErrorCode.InternalError, `${what} failed.`);
    } finally {
      done();
    }
  };

  if (offerings.resources.length || offerings.resourceTemplates.length) {
    server.setRequestHandler('resources/list', async () => ({
      resources: offerings.resources.map(({ offered }) => ({
        uri: offered.options.uri,
        name: offered.name,
        ...pick(offered.options, 'title', 'description', 'mimeType'),
      })),
    }));
    server.setRequestHandler('resources/templates/list', async () => ({
      resourceTemplates: offerings.resourceTemplates.map(({ offered }) => ({
        uriTemplate: offered.options.uriTemplate,
        name: offered.name,
        ...pick(offered.options, 'title', 'description', 'mimeType'),
      })),
    }));
    server.setRequestHandler('resources/read', async (request, extra) => {
      const uri = request.params.uri;
      const fixed = offerings.resources.find(({ offered }) => offered.options.uri === uri);
      if (fixed) {
        return withContext(extra, `Reading resource "${uri}"`, async (context) => ({
          contents: [toResourceContents(uri, await call(fixed, context, [context]), fixed.offered.options.mimeType)],
        }) satisfies ReadResourceResult);
      }
      for (const { served, matcher } of templates) {
        const variables = matcher.match(uri);
        if (!variables) continue;
        const values = Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, decodeVariable(uri, Array.isArray(value) ? value.join(',') : value)]));
        return withContext(extra, `Reading resource "${uri}"`, async (context) => ({
          contents: [toResourceContents(uri, await call(served, context, [values, context]), served.offered.options.mimeType)],
        }) satisfies ReadResourceResult);
      }
      throw new ResourceNotFoundError(uri);
    });
  }

  if (offerings.prompts.length) {
    server.setRequestHandler('prompts/list', async () => ({
      prompts: offerings.prompts.map(({ offered }) => ({
        name: offered.name,
        ...pick(offered.options, 'title', 'description'),
        ...(offered.arguments.length ? { arguments: offered.arguments.map((arg) => ({ name: arg.name, ...pick(arg, 'description', 'required') })) } : {}),
      })),
    }));
    server.setRequestHandler('prompts/get', async (request, extra) => {
      const prompt = offerings.prompts.find(({ offered }) => offered.name === request.params.name);
      if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt "${request.params.name}".`);
      const args = request.params.arguments ?? {};
      const declared = prompt.offered.arguments.map((arg) => arg.name);
      const unknown = Object.keys(args).filter((name) => !declared.includes(name));
      if (unknown.length) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt "${prompt.offered.name}" has no argument${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `"${name}"`).join(', ')}.`);
      const missing = prompt.offered.arguments.filter((arg) => arg.required && typeof args[arg.name] !== 'string').map((arg) => arg.name);
      if (missing.length) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt "${prompt.offered.name}" needs the argument${missing.length > 1 ? 's' : ''} ${missing.map((name) => `"${name}"`).join(', ')}.`);
      return withContext(extra, `Prompt "${prompt.offered.name}"`, async (context) => {
        const made = await call(prompt, context, [args, context]);
        const messages = typeof made === 'string' ? [{ role: 'user' as const, content: made }] : (made as PromptMessage[]);
        return {
          ...pick(prompt.offered.options, 'description'),
          messages: messages.map(toMcpPromptMessage),
        } satisfies GetPromptResult;
      });
    });
  }

  if (offerings.prompts.length || offerings.resourceTemplates.length) {
    server.setRequestHandler('completion/complete', async (request, extra) => {
      const { ref, argument } = request.params;
      const resolved = request.params.context?.arguments ?? {};
      let known: readonly string[] | undefined;
      let completer: ServedOffering<ServedOfferings['completions'][number]['offered']> | undefined;
      if (ref.type === 'ref/prompt') {
        known = offerings.prompts.find(({ offered }) => offered.name === ref.name)?.offered.arguments.map((arg) => arg.name);
        completer = offerings.completions.find(({ offered }) => 'prompt' in offered.options && offered.options.prompt === ref.name && offered.options.argument === argument.name);
      } else {
        known = offerings.resourceTemplates.find(({ offered }) => offered.options.uriTemplate === ref.uri)?.offered.variables;
        completer = offerings.completions.find(({ offered }) => 'resourceTemplate' in offered.options && offered.options.resourceTemplate === ref.uri && offered.options.argument === argument.name);
      }
      const target = ref.type === 'ref/prompt' ? `prompt "${ref.name}"` : `resource template "${ref.uri}"`;
      if (!known) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${target}.`);
      const unknown = [argument.name, ...Object.keys(resolved)].find((name) => !known.includes(name));
      if (unknown !== undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The ${target} has no argument "${unknown}".`);
      // An argument without a @Complete method has no suggestions.
      if (!completer) return { completion: { values: [] } } satisfies CompleteResult;
      return withContext(extra, `Completing "${argument.name}" of the ${target}`, async (context) => {
        const values = await call(completer, context, [argument.value, resolved, context]);
        if (!Array.isArray(values) || values.some((value) => typeof value !== 'string')) {
          throw new ToolsmithError('MCP_INVALID_COMPLETION', `The completion of "${argument.name}" of the ${target} returned something other than an array of strings.`);
        }
        return {
          completion: { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: values.length > MAX_COMPLETIONS },
        } satisfies CompleteResult;
      });
    });
  }
}

/**
 * Serves `resources/subscribe` and `resources/unsubscribe` (2025-11-25) on a session's server: a URI that
 * no resource or template offers is refused as `resources/read` refuses it; the subscription lasts until
 * the client unsubscribes or the session ends.
 */
export function registerSubscriptionHandlers(server: Server, offerings: ServedOfferings, subscriptions: ResourceSubscriptions): void {
  if (!offerings.resources.length && !offerings.resourceTemplates.length) return;
  const templates = offerings.resourceTemplates.map((served) => new UriTemplate(served.offered.options.uriTemplate));
  const offered = (uri: string) =>
    offerings.resources.some(({ offered: resource }) => resource.options.uri === uri) ||
    templates.some((template) => {
      const variables = template.match(uri);
      // A malformed percent-encoding is refused as resources/read refuses it (-32602).
      for (const value of Object.values(variables ?? {})) decodeVariable(uri, Array.isArray(value) ? value.join(',') : value);
      return variables !== null;
    });
  server.setRequestHandler('resources/subscribe', async (request) => {
    if (!offered(request.params.uri)) throw new ResourceNotFoundError(request.params.uri);
    subscriptions.subscribe(server, request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    subscriptions.unsubscribe(server, request.params.uri);
    return {};
  });
}

/** The capabilities that go with what is offered (none for nothing); resources can be subscribed to. */
export function offeringCapabilities(offerings: ServedOfferings): { resources?: { subscribe: true }; prompts?: Record<string, never>; completions?: Record<string, never> } {
  const resources = offerings.resources.length > 0 || offerings.resourceTemplates.length > 0;
  const prompts = offerings.prompts.length > 0;
  return {
    ...(resources ? { resources: { subscribe: true } } : {}),
    ...(prompts ? { prompts: {} } : {}),
    ...(prompts || offerings.resourceTemplates.length > 0 ? { completions: {} } : {}),
  };
}

/** A request's offering context: read-only state, identity and the request's signal. */
export function offeringContext(fields: { appName: string; agentName: string; userId: string; sessionId: string; values: Record<string, unknown>; signal: AbortSignal }): OfferingContext {
  return {
    appName: fields.appName,
    agentName: fields.agentName,
    userId: fields.userId,
    sessionId: fields.sessionId,
    invocationId: randomUUID(),
    state: new State(fields.values, {}),
    signal: fields.signal,
  };
}

async function call(served: ServedOffering<OfferedMethod<unknown>>, context: OfferingContext, args: unknown[]): Promise<unknown> {
  const instance = await served.instanceFor(context);
  return await served.offered.implementation.apply(instance, args);
}

function toResourceContents(uri: string, contents: unknown, mimeType: string | undefined): TextResourceContents | BlobResourceContents {
  if (typeof contents === 'string') return { uri, mimeType: mimeType ?? 'text/plain', text: contents };
  if (contents instanceof ToolFile) return { uri, mimeType: contents.mimeType, blob: contents.data };
  if (contents instanceof Uint8Array) return { uri, mimeType: mimeType ?? 'application/octet-stream', blob: Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength).toString('base64') };
  throw new ToolsmithError('MCP_INVALID_RESOURCE_CONTENTS', `Resource "${uri}" was read as ${contents === null ? 'null' : typeof contents}, not text, bytes or a file (toolFile).`);
}

function toMcpPromptMessage(message: PromptMessage): McpPromptMessage {
  const { role, content } = message;
  if (typeof content === 'string') return { role, content: { type: 'text', text: content } };
  if (content instanceof ToolFile) {
    if (content.mimeType.startsWith('image/')) return { role, content: { type: 'image', mimeType: content.mimeType, data: content.data } };
    if (content.mimeType.startsWith('audio/')) return { role, content: { type: 'audio', mimeType: content.mimeType, data: content.data } };
    return { role, content: { type: 'resource', resource: { uri: `toolsmith://prompt-files/${encodeURIComponent(content.name ?? 'file')}`, mimeType: content.mimeType, blob: content.data } } };
  }
  if (content && typeof content === 'object' && 'resource' in content) {
    const resource = content.resource as { uri: string; contents: ResourceContents; mimeType?: string };
    return { role, content: { type: 'resource', resource: toResourceContents(resource.uri, resource.contents, resource.mimeType) } };
  }
  throw new ToolsmithError('MCP_INVALID_PROMPT_MESSAGE', `A prompt message of role "${String(role)}" has content that is not text, a file (toolFile) or { resource }.`);
}

/** A template variable as the method gets it: percent-decoded (`caf%C3%A9` → `café`). */
function decodeVariable(uri: string, value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `The resource URI "${uri}" has a malformed percent-encoding.`);
  }
}

function pick<T extends object, K extends keyof T>(source: T, ...keys: K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}
