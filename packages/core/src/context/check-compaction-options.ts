import { AgentConfigError } from '../errors/agent-config-error';
import { invalidCompactionMessage } from '../errors/messages';
import type { CompactionOptions } from './compaction-options';

/**
 * `options` checked (a known strategy; `keepTurns`, `everyTurns` and `maxInputTokens` positive
 * integers; a trigger for `summarize`) and copied; throws `AGENT_CONFIG_INVALID` naming `where` and the problem.
 */
export function checkCompactionOptions(options: CompactionOptions, where: string): CompactionOptions {
  const fail = (problem: string): never => {
    throw new AgentConfigError(invalidCompactionMessage(where, problem));
  };
  const positive = (name: string, value: unknown) => {
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 1)) fail(`${name} must be a whole number of at least 1, got ${String(value)}`);
  };
  if (options.strategy === 'trim') {
    if (options.keepTurns === undefined) fail('the trim strategy needs keepTurns');
    positive('keepTurns', options.keepTurns);
    return { strategy: 'trim', keepTurns: options.keepTurns };
  }
  if (options.strategy !== 'summarize') fail(`strategy must be 'summarize' or 'trim', got ${JSON.stringify((options as { strategy?: unknown }).strategy)}`);
  positive('keepTurns', options.keepTurns);
  positive('everyTurns', options.everyTurns);
  positive('maxInputTokens', options.maxInputTokens);
  if (options.maxInputTokens === undefined && options.everyTurns === undefined) fail('the summarize strategy needs a trigger: maxInputTokens, everyTurns or both');
  return { ...options };
}
