import type { SessionSummary } from '../protocol/api-types';

/** The user's sessions, titled by their first message: search them, open one, start a new one, delete one. */
export function SessionList(props: {
  sessions: SessionSummary[];
  search: string;
  onSearch(text: string): void;
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
      <input class="session-search" data-testid="session-search" type="search" placeholder="Search sessions…" value={props.search} onInput={(e) => props.onSearch(e.currentTarget.value)} />
      {props.sessions.length === 0 && <p class="muted">{props.search.trim() ? 'No session matches.' : 'No sessions yet. Send a message to start one.'}</p>}
      <ul>
        {props.sessions.map((session) => (
          <li key={session.id} class={session.id === props.selected ? 'selected' : ''} data-testid="session-item" data-session-id={session.id}>
            <button class="open" onClick={() => props.onOpen(session.id)} title={session.id}>
              <span class="session-id" data-testid="session-title">{session.title ?? session.id}</span>
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
