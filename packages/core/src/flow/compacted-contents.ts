import type { Event } from '../events/event';
import { buildContents } from './contents-builder';
import type { Content } from '../model/content';
import type { CompactionOptions } from '../context/compaction-options';
import { cutKeepingTurns } from '../context/cut-points';
import type { EventCompaction } from '../context/event-compaction';

/** What the model is told before the kept turns when older ones were summarized. */
export const SUMMARY_PREFIX = 'Summary of the earlier conversation:\n';

/** The part of the history an agent's model is sent under `compaction`: the kept events, and the summary of the rest. */
export interface CompactedHistory {
  /** The events sent as they are (a suffix of the session's events). */
  events: readonly Event[];
  /** The summary of every event before them (summarize strategy, once a compaction event exists). */
  summary?: string;
  /** Index in the session's events of the first kept event (0 when nothing is left out). */
  start: number;
}

/**
 * The latest compaction event `agentName` stored (its `actions.compaction`) and its index, or `undefined`.
 */
export function latestCompaction(events: readonly Event[], agentName: string): { event: Event; index: number; record: EventCompaction } | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const record = events[i].actions.compaction;
    if (record && events[i].author === agentName) return { event: events[i], index: i, record };
  }
  return undefined;
}

/**
 * The history under `options`: with `trim`, the events from the cut that keeps the last `keepTurns`
 * turns; with `summarize`, the events from the latest compaction event's `firstKeptEventId` on, with
 * its summary (all events while there is none). The stored events are never changed.
 */
export function compactedHistory(events: readonly Event[], agentName: string, options: CompactionOptions): CompactedHistory {
  if (options.strategy === 'trim') {
    const cut = cutKeepingTurns(events, options.keepTurns);
    return cut === undefined ? { events, start: 0 } : { events: events.slice(cut), start: cut };
  }
  const latest = latestCompaction(events, agentName);
  if (!latest) return { events, start: 0 };
  const first = events.findIndex((event) => event.id === latest.record.firstKeptEventId);
  // A compaction event always names an event stored before it; one that does not (edited by hand) changes nothing.
  if (first < 0 || first > latest.index) return { events, start: 0 };
  return { events: events.slice(first), summary: latest.record.summary, start: first };
}

/**
 * The conversation `agentName`'s model is sent under `options` (see {@link buildContents}): the kept
 * events' contents, after the summary when there is one. The summary is a user content; when the
 * kept part starts with a user message (it always starts a turn), the summary goes first in that message.
 */
export function compactedContents(events: readonly Event[], agentName: string, branch: string | undefined, options: CompactionOptions): Content[] {
  const history = compactedHistory(events, agentName, options);
  const contents = buildContents(history.events, agentName, branch);
  if (history.summary === undefined) return contents;
  const summary = { text: SUMMARY_PREFIX + history.summary };
  const first = contents[0];
  if (first?.role === 'user' && !first.parts.some((part) => part.functionResponse)) return [{ ...first, parts: [summary, ...first.parts] }, ...contents.slice(1)];
  return [{ role: 'user', parts: [summary] }, ...contents];
}
