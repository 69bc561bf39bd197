import type { Model } from '../model/model';

/**
 * Summarize older turns (see docs/context.md): when a trigger fires before a model call, the turns
 * before the last `keepTurns` are summarized into a compaction event; from then on the model is sent
 * the summary followed by the kept turns. Give `maxInputTokens`, `everyTurns`, or both.
 */
export interface SummarizeCompaction {
  /** Selects summarizing. */
  strategy: 'summarize';
  /**
   * Summarize when the agent's last model call, made after the last compaction, reported more input
   * (prompt) tokens than this (`event.usage.inputTokens`).
   */
  maxInputTokens?: number;
  /** Summarize each time this many turns have started since the last compaction (the first: since the session began). */
  everyTurns?: number;
  /** The most recent turns sent as they are, never summarized. Default 2; at least 1 (the current turn). */
  keepTurns?: number;
  /** The model that writes the summary. Default: the agent's own model. */
  model?: Model;
  /** The instruction the summarizing model gets (its system instruction). Default: {@link DEFAULT_COMPACTION_PROMPT}. */
  prompt?: string;
}

/**
 * Keep only the last `keepTurns` turns in what the model is sent (the stored history stays whole).
 * Nothing is summarized and no event is stored.
 */
export interface TrimCompaction {
  /** Selects trimming. */
  strategy: 'trim';
  /** The most recent turns sent; earlier ones are left out. At least 1. */
  keepTurns: number;
}

/**
 * How an agent keeps its requests small in long conversations: `LlmAgent({ compaction })`, or
 * `Runner({ compaction })` for every `LlmAgent` without its own. A turn starts with each user message.
 * Cuts fall only where no call is separated from its result, and never inside a pending confirmation,
 * a long-running call or an unanswered call (see docs/context.md).
 */
export type CompactionOptions = SummarizeCompaction | TrimCompaction;

/** The instruction the summarizing model gets unless `prompt` is given. */
export const DEFAULT_COMPACTION_PROMPT =
  'You summarize the earlier part of a conversation between a user and an AI agent that uses tools, so the agent can ' +
  'continue without the full transcript. Keep every fact, name, number, identifier, decision, commitment and open ' +
  'question the agent may still need, what the tools returned that still matters, and what the user wants. Leave ' +
  'out greetings and repetition. Answer with the summary only, as plain text.';
