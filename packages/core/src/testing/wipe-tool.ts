import type { BaseTool } from '../tools/base-tool';
import { functionTool } from '../function-tool/function-tool';

/**
 * A `wipe` tool for confirmation tests (an agent, often called as an `AgentTool`, whose tool needs the
 * person's approval): `{ disk }` (`sd` and one letter), always asks with the hint `Wipe <disk>?`, and
 * pushes each disk it wiped onto `wiped` (nothing is touched).
 *
 * @example
 * ```ts
 * const wiped: string[] = [];
 * const janitor = new LlmAgent({ name: 'janitor', description: 'Cleans disks.', model, tools: [wipeTool(wiped)] });
 * ```
 */
export function wipeTool(wiped: string[]): BaseTool {
  return functionTool<{ disk: string }>({
    name: 'wipe',
    description: 'Wipes a disk.',
    parameters: { type: 'object', properties: { disk: { type: 'string', pattern: '^sd[a-z]$' } }, required: ['disk'] },
    requireConfirmation: true,
    confirmationHint: (args) => `Wipe ${args.disk}?`,
    execute: (args) => {
      wiped.push(args.disk);
      return { wiped: args.disk };
    },
  });
}
