import { useEffect, useRef, useState } from 'preact/hooks';
import type { SessionDetail, WireEvent, WirePending } from '../protocol/api-types';
import { ApiCallError, RunListener, api, describeError } from './api-client';
import { EventTimeline } from './event-timeline';
import { PendingPanel } from './pending-panel';

const NOTHING_PENDING: WirePending = { confirmations: [], longRunning: [] };
/** The runner's refusals of an answer: the request stays open, and its form shows why. */
const REFUSALS = new Set(['CONFIRMATION_EDIT_INVALID', 'INVALID_CONFIRMATION_ANSWER', 'CONFIRMATION_MISMATCH', 'FUNCTION_RESPONSE_NOT_PENDING']);

/**
 * One session's conversation: the stored events, the run streaming in (partial text as it arrives),
 * what the session waits for, and the chat box. A run's events come over SSE; when it ends the
 * session is read again from the store, which is what a reload shows.
 */
export function ChatView({ sessionId, ensureSession, onRunEnd, grants }: { sessionId: string | undefined; ensureSession(): Promise<string>; onRunEnd(): void; grants: boolean }) {
  const [detail, setDetail] = useState<SessionDetail | undefined>();
  const [live, setLive] = useState<WireEvent[]>([]);
  const [sentText, setSentText] = useState('');
  const [streamingText, setStreamingText] = useState('');
  const [pending, setPending] = useState<WirePending>(NOTHING_PENDING);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [text, setText] = useState('');
  // The runner's refusal of the last answer to each request (not stored, so only the stream says it).
  const [refusals, setRefusals] = useState<Record<string, string>>({});
  const bottom = useRef<HTMLDivElement>(null);
  const stop = useRef<AbortController | undefined>(undefined);

  const load = async (id: string) => {
    const session = await api.getSession(id);
    // The stored events replace the run's live ones in the same update: no render may show both.
    setLive([]);
    setSentText('');
    setDetail(session);
    setPending(session.pending);
  };
  useEffect(() => {
    setDetail(undefined);
    setPending(NOTHING_PENDING);
    setLive([]);
    setProblem('');
    if (sessionId) load(sessionId).catch((error: unknown) => setProblem(describeError(error)));
  }, [sessionId]);
  useEffect(() => bottom.current?.scrollIntoView({ block: 'end' }), [detail, live, streamingText]);

  /** Runs one streamed request and folds its events into the view. */
  const streamed = async (start: (id: string, listener: RunListener, signal: AbortSignal) => Promise<void>, userText = '', answering?: string) => {
    setBusy(true);
    setProblem('');
    setSentText(userText);
    const controller = new AbortController();
    stop.current = controller;
    try {
      const id = await ensureSession();
      await start(id, {
        onEvent: (event) => {
          if (event.partial) {
            const chunk = (event.content?.parts ?? []).map((p) => (p.thought ? '' : (p.text ?? ''))).join('');
            setStreamingText((current) => current + chunk);
          } else {
            setStreamingText('');
            setLive((current) => [...current, event]);
            if (answering && event.errorCode && REFUSALS.has(event.errorCode)) {
              setRefusals((current) => ({ ...current, [answering]: `${event.errorCode}: ${event.errorMessage ?? ''}` }));
            }
          }
        },
        onEnd: (end) => setPending(end.pending),
        onError: (error: ApiCallError) => {
          // An answer refused up front (400 with the runner's code) is shown in its form, like a refusal in the stream.
          if (answering && REFUSALS.has(error.code)) setRefusals((current) => ({ ...current, [answering]: error.toString() }));
          else setProblem(error.toString());
        },
      }, controller.signal);
      await load(id);
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      stop.current = undefined;
      setLive([]);
      setSentText('');
      setStreamingText('');
      setBusy(false);
      onRunEnd();
    }
  };

  const send = () => {
    const message = text.trim();
    if (!message || busy) return;
    setText('');
    void streamed((id, listener, signal) => api.run(id, message, listener, signal), message);
  };

  const events = detail?.events ?? [];
  const waiting = sentText ? [userEvent(sentText)] : [];
  return (
    <div class="chat">
      <div class="conversation">
        {sessionId === undefined && <p class="muted empty">Start a conversation: type a message below, or open a session on the left.</p>}
        <EventTimeline events={[...events, ...waiting, ...live]} streamingText={streamingText} />
        {busy && <div class="running" data-testid="running">running…</div>}
        {problem && <div class="error" data-testid="problem">{problem}</div>}
        <PendingPanel
          pending={pending}
          busy={busy}
          grants={grants}
          refusals={refusals}
          actions={{
            answer: (requestId, answer) => {
              setRefusals((current) => {
                const next = { ...current };
                delete next[requestId];
                return next;
              });
              void streamed((id, listener, signal) => api.answerConfirmation(id, requestId, answer, listener, signal), '', requestId);
            },
            update: (callId, response, willContinue, question) =>
              void streamed((id, listener, signal) => api.updateLongRunning(id, callId, { response, willContinue, ...(question ? { question } : {}) }, listener, signal)),
          }}
        />
        {detail && <StateView state={detail.state} />}
        <div ref={bottom} />
      </div>
      <form
        class="chat-box"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <input data-testid="chat-input" value={text} placeholder="Message the agent…" onInput={(e) => setText(e.currentTarget.value)} disabled={busy} />
        {busy ? (
          <button type="button" class="stop" data-testid="stop" onClick={() => stop.current?.abort()}>
            Stop
          </button>
        ) : (
          <button type="submit" data-testid="send" disabled={text.trim() === ''}>
            Send
          </button>
        )}
      </form>
    </div>
  );
}

/** The session's whole state after its last event. */
function StateView({ state }: { state: Record<string, unknown> }) {
  const entries = Object.entries(state);
  if (entries.length === 0) return null;
  return (
    <details class="session-state" data-testid="session-state">
      <summary>Session state ({entries.length} {entries.length === 1 ? 'key' : 'keys'})</summary>
      <pre class="json">{JSON.stringify(state, null, 2)}</pre>
    </details>
  );
}

/** The message being sent, shown until the stored session (which has it) is read back. */
function userEvent(text: string): WireEvent {
  return { id: 'sending', invocationId: '', author: 'user', content: { role: 'user', parts: [{ text }] }, actions: { stateDelta: {} }, timestamp: Date.now() };
}
