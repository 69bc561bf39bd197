/**
 * The names of the DBOS steps a durable run records, in the order they occur. A recovered workflow
 * replays its recorded steps by position and DBOS checks each name: a release that renames, adds,
 * removes or reorders steps must not recover runs recorded by an older one. Keep these names, and
 * change `applicationVersion` (DBOS recovers a workflow only on workers of its version) when a release
 * changes the steps a run takes. See docs/durable.md, "Versioning".
 */
export const DURABLE_STEP_NAMES = {
  /** Loads the session at the start of the run (its recorded copy is what a replay starts from). */
  loadSession: 'toolsmith.session.load',
  /** Creates the session when it does not exist yet. */
  createSession: 'toolsmith.session.create',
  /** Deletes a session created for a refused first message. */
  deleteSession: 'toolsmith.session.delete',
  /** Stores one event. */
  appendEvent: 'toolsmith.session.append',
  /** One model call: the complete response. */
  model: 'toolsmith.model',
  /** A tool call is about to run (recorded before the tool runs). */
  toolStarted: 'toolsmith.tool.started',
  /** What a tool call came to: its response and actions, or its error. */
  toolResult: 'toolsmith.tool.result',
} as const;
