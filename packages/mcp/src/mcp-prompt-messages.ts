import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { Content, Part } from '@toolsmith/core';
import { type McpResourceContents, resourceContentsPart, resourceLinkText } from './mcp-resource-contents';
import { fileMediaType } from './mcp-file-media-type';

/**
 * An MCP prompt's messages as Toolsmith contents: `assistant` becomes the `model` role; text stays text;
 * images and audio become `inlineData` parts; an embedded resource becomes its text (headed by its URI) or
 * a file part; a resource link a line naming it.
 */
export function promptMessagesToContents(messages: GetPromptResult['messages']): Content[] {
  return messages.map((message) => ({ role: message.role === 'assistant' ? 'model' : 'user', parts: [contentPart(message.content)] }));
}

function contentPart(content: GetPromptResult['messages'][number]['content']): Part {
  switch (content.type) {
    case 'text':
      return { text: content.text };
    case 'image':
    case 'audio':
      return { inlineData: { mimeType: fileMediaType(content.mimeType), data: content.data } };
    case 'resource_link':
      return { text: resourceLinkText(content) };
    case 'resource': {
      const part = resourceContentsPart(content.resource as McpResourceContents);
      return 'text' in part ? { text: part.text } : part.file.toPart();
    }
  }
}
