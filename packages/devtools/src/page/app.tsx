import { useEffect, useRef, useState } from 'preact/hooks';
import type { AppInfo, SessionSummary } from '../protocol/api-types';
import { api, describeError } from './api-client';
import { ChatView } from './chat-view';
import { SessionList } from './session-list';
import { GrantsView } from './grants-view';
import { InspectorView } from './inspector-view';
import { ToolsView } from './tools-view';
import { EvalsView, SaveEvalCase } from './evals-view';

type Tab = 'chat' | 'tools' | 'grants' | 'inspector' | 'evals';
const TABS: readonly Tab[] = ['tools', 'grants', 'inspector', 'evals'];

/** The open session and tab live in the URL hash (`#/s/<id>`, `#/tools`, `#/grants`), so a reload shows the same view. */
/** The hash {@link writeHash} writes: `#/s/<id>`, `#/s/<id>/<tab>` or `#/<tab>` (a session may be named as a tab is). */
const HASH = /^#(?:\/s\/([^/]+))?(?:\/([^/]+))?$/;

function readHash(): { sessionId?: string; tab: Tab } {
  const match = HASH.exec(location.hash);
  const tab = TABS.find((name) => name === match?.[2]) ?? 'chat';
  let sessionId: string | undefined;
  try {
    sessionId = match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
  } catch {
    sessionId = undefined; // not percent-encoding the page wrote: no session
  }
  return { ...(sessionId === undefined ? {} : { sessionId }), tab };
}

function writeHash(sessionId: string | undefined, tab: Tab): void {
  const hash = `#${sessionId ? `/s/${encodeURIComponent(sessionId)}` : ''}${tab === 'chat' ? '' : `/${tab}`}`;
  if (location.hash !== hash) history.replaceState(null, '', hash || location.pathname);
}

/** The dev UI: app and store header, session list, and the Chat and Tools tabs. */
export function App() {
  const initial = readHash();
  const [info, setInfo] = useState<AppInfo | undefined>();
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [sessionId, setSessionId] = useState<string | undefined>(initial.sessionId);
  const [tab, setTab] = useState<Tab>(initial.tab);
  const [problem, setProblem] = useState('');
  const [search, setSearch] = useState('');
  const searchRef = useRef(search);
  searchRef.current = search;

  // The answer to an older search may arrive after a newer one's: only the latest search's list is shown.
  const refresh = () => {
    const asked = searchRef.current;
    return api.listSessions(asked).then((list) => asked === searchRef.current && setSessions(list), (error: unknown) => setProblem(describeError(error)));
  };
  useEffect(() => void refresh(), [search]);
  useEffect(() => {
    api.info().then(setInfo, (error: unknown) => setProblem(describeError(error)));
  }, []);
  // The served page names no app (it is served without the token): the name comes with /api/info.
  useEffect(() => {
    if (info) document.title = `${info.appName} · Toolsmith dev UI`;
  }, [info]);
  useEffect(() => writeHash(sessionId, tab), [sessionId, tab]);

  const createSession = async () => {
    setProblem('');
    const session = await api.createSession().catch((error: unknown) => {
      setProblem(describeError(error));
      throw error;
    });
    setSessionId(session.id);
    setTab('chat');
    await refresh();
    return session.id;
  };

  return (
    <div class="app">
      <header>
        <div class="title">
          <span class="logo">⚒</span> <strong data-testid="app-name">{info?.appName ?? '…'}</strong>
          {info && (
            <span class="muted">
              {' '}
              agent <code>{info.agentName}</code>
              {info.model && (
                <>
                  {' '}
                  · model <code>{info.model}</code>
                </>
              )}{' '}
              · user <code>{info.userId}</code>
            </span>
          )}
        </div>
        {info && (
          <div class={`store ${info.store.durable ? 'durable' : 'volatile'}`} data-testid="session-store" title={info.store.description}>
            sessions: {info.store.description}
          </div>
        )}
      </header>
      {problem && <div class="error" data-testid="app-problem">{problem}</div>}
      <div class="body">
        <SessionList
          sessions={sessions}
          search={search}
          onSearch={setSearch}
          selected={sessionId}
          onOpen={(id) => {
            setSessionId(id);
            setTab('chat');
          }}
          onNew={() => void createSession().catch(() => undefined)}
          onDelete={async (id) => {
            try {
              await api.deleteSession(id);
              if (id === sessionId) setSessionId(undefined);
              await refresh();
            } catch (error) {
              setProblem(describeError(error));
            }
          }}
        />
        <main>
          <nav class="tabs">
            <button class={tab === 'chat' ? 'active' : ''} data-testid="tab-chat" onClick={() => setTab('chat')}>
              Chat{sessionId ? ` · ${sessionId}` : ''}
            </button>
            <button class={tab === 'tools' ? 'active' : ''} data-testid="tab-tools" onClick={() => setTab('tools')}>
              Tools
            </button>
            <button class={tab === 'grants' ? 'active' : ''} data-testid="tab-grants" onClick={() => setTab('grants')}>
              Grants
            </button>
            <button class={tab === 'inspector' ? 'active' : ''} data-testid="tab-inspector" onClick={() => setTab('inspector')}>
              Inspector
            </button>
            <button class={tab === 'evals' ? 'active' : ''} data-testid="tab-evals" onClick={() => setTab('evals')}>
              Evals
            </button>
          </nav>
          {tab === 'chat' && sessionId && <SaveEvalCase sessionId={sessionId} />}
          {tab === 'chat' && (
            <ChatView sessionId={sessionId} ensureSession={async () => sessionId ?? (await createSession())} onRunEnd={() => void refresh()} grants={info?.grants === true} />
          )}
          {tab === 'tools' && <ToolsView sessionId={sessionId} />}
          {tab === 'grants' && info && <GrantsView available={info.grants} />}
          {tab === 'evals' && <EvalsView />}
          {tab === 'inspector' && info && <InspectorView sessionId={sessionId} available={info.inspector} />}
        </main>
      </div>
    </div>
  );
}
