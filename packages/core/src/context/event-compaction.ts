/**
 * What a compaction event records (`event.actions.compaction`): the older part of the conversation, as
 * one agent sees it, summarized. The stored history keeps every event; only what that agent's model is
 * sent changes: the summary instead of every event before `firstKeptEventId`. See docs/context.md.
 */
export interface EventCompaction {
  /** The summary of the conversation up to (not including) `firstKeptEventId`, the earlier summary included. */
  summary: string;
  /** Id of the first event still sent as it is: the user message that starts the oldest kept turn. */
  firstKeptEventId: string;
  /** How many stored events the summary stands for (every event before `firstKeptEventId`). */
  summarizedEvents: number;
}
