import type { SessionSummary } from '../protocol/api-types';

/** The user's sessions: open one, start a new one, delete one. */
export function SessionList(props: {
  sessions: SessionSummary[];
  selected: string | undefined;
  onOpen(id: string): void;
  onNew(): void;
  onDelete(id: string): void;
}) {
  return (
    <aside class="sessions" data-testid="sessions">
      <div class="sessions-head">
        <h2>Sessions</h2>
        <button data-testid="new-session" onClick={props.onNew}>
          + New
        </button>
      </div>
      {props.sessions.length === 0 && <p class="muted">No sessions yet. Send a message to start one.</p>}
      <ul>
        {props.sessions.map((session) => (
          <li key={session.id} class={session.id === props.selected ? 'selected' : ''} data-testid="session-item" data-session-id={session.id}>
            <button class="open" onClick={() => props.onOpen(session.id)} title={session.id}>
              <span class="session-id">{session.id}</span>
              <span class="muted">{session.lastUpdateTime ? new Date(session.lastUpdateTime).toLocaleString() : 'empty'}</span>
            </button>
            <button class="delete" data-testid="delete-session" title="Delete this session" onClick={() => props.onDelete(session.id)}>
              ×
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
