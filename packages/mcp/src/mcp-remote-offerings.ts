import type { Content } from '@toolsmith/core';
import type { McpResourceLinkInfo } from './mcp-resource-contents';

/** A resource an MCP server lists (`resources/list`). */
export type McpResourceInfo = McpResourceLinkInfo;

/** A resource template an MCP server lists (`resources/templates/list`): URIs it reads by parameters. */
export interface McpResourceTemplateInfo {
  /** An RFC 6570 URI template, e.g. `docs://pages/{page}`. */
  uriTemplate: string;
  /** The server's name of the template. */
  name: string;
  /** A display name for people. */
  title?: string;
  /** What the template's resources hold, as the server words it. */
  description?: string;
  /** The media type of its resources, when the server says. */
  mimeType?: string;
}

/** A prompt an MCP server lists (`prompts/list`). */
export interface McpPromptInfo {
  /** The prompt's name, as `McpToolset.getPrompt` takes it. */
  name: string;
  /** A display name for people. */
  title?: string;
  /** What the prompt is for, as the server words it. */
  description?: string;
  /** The arguments the prompt takes (all strings). */
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** A prompt filled in by the server (`prompts/get`), as Toolsmith contents. */
export interface McpPrompt {
  /** The server's description of the prompt, when it gives one. */
  description?: string;
  /** The prompt's messages: the `assistant` role as `model`, images and audio as `inlineData` parts, embedded resources as text or files. */
  messages: Content[];
}

/** What `completion/complete` is asked about: an argument of a prompt, or a variable of a resource template. */
export type McpCompletionTarget = { prompt: string } | { resourceTemplate: string };

/** The server's suggestions for an argument (`completion/complete`). */
export interface McpCompletion {
  /** At most 100 values. */
  values: string[];
  /** How many there are in all, when the server says. */
  total?: number;
  /** Whether there are more than `values`. */
  hasMore?: boolean;
}
