import { Complete, Prompt, type PromptMessage, Resource, ResourceTemplate, Toolset, toolFile } from '@toolsmith/core';
import { SAMPLE_FILES } from '@toolsmith/core/testing';

/**
 * The resources, prompts and completion the official MCP conformance suite's server scenarios ask for,
 * by the URIs and names they use, written as any Toolsmith class offers them (decorators; served by
 * `serveMcp` in mcp-conformance.e2e.test.ts next to `conformanceTools()`).
 */
@Toolset()
export class ConformanceOfferings {
  @Resource({ uri: 'test://static-text', name: 'static-text', description: 'A fixed text resource.', mimeType: 'text/plain' })
  staticText() {
    return 'This is the content of the static text resource.';
  }

  @Resource({ uri: 'test://static-binary', name: 'static-binary', description: 'A fixed binary resource.' })
  staticBinary() {
    return toolFile({ mimeType: 'image/png', data: SAMPLE_FILES.png });
  }

  @Resource({ uri: 'test://example-resource', name: 'example-resource', description: 'The resource a prompt embeds.' })
  exampleResource() {
    return 'An example resource.';
  }

  @Resource({ uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource clients subscribe to.' })
  watchedResource() {
    return 'The watched resource.';
  }

  @ResourceTemplate({ uriTemplate: 'test://template/{id}/data', name: 'template-data', description: 'Data of one id.', mimeType: 'application/json' })
  templateData(vars: { id: string }) {
    return JSON.stringify({ id: vars.id, data: `Data for ID: ${vars.id}` });
  }

  @Prompt({ name: 'test_simple_prompt', description: 'A prompt without arguments.' })
  simple() {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments.',
    arguments: [
      { name: 'arg1', description: 'The first argument.', required: true },
      { name: 'arg2', description: 'The second argument.', required: true },
    ],
  })
  withArguments(args: { arg1: string; arg2: string }) {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @Complete({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  completeArg1(value: string) {
    return ['paris', 'park', 'test', 'testing'].filter((candidate) => candidate.startsWith(value));
  }

  @Prompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource.',
    arguments: [{ name: 'resourceUri', description: 'The URI to embed.', required: true }],
  })
  withEmbeddedResource(args: { resourceUri: string }): PromptMessage[] {
    return [
      { role: 'user', content: { resource: { uri: args.resourceUri, contents: 'Embedded resource content for testing.' } } },
      { role: 'user', content: 'Please process the embedded resource above.' },
    ];
  }

  @Prompt({ name: 'test_prompt_with_image', description: 'A prompt with an image.' })
  withImage(): PromptMessage[] {
    return [
      { role: 'user', content: toolFile({ mimeType: 'image/png', data: SAMPLE_FILES.png }) },
      { role: 'user', content: 'Please analyze the image above.' },
    ];
  }
}
