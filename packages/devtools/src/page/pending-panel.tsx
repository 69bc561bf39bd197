import { useState } from 'preact/hooks';
import type { WirePending, WirePendingConfirmation, WirePendingLongRunning } from '../protocol/api-types';
import { jsonText } from './json-view';

/** What the user can answer: approvals and long-running updates. */
export interface PendingActions {
  answer(requestId: string, confirmed: boolean, payload: unknown): void;
  update(callId: string, response: Record<string, unknown>, willContinue: boolean): void;
}

/** The session's pending confirmations (Approve/Deny, optional payload) and long-running calls (update form). */
export function PendingPanel({ pending, busy, actions }: { pending: WirePending; busy: boolean; actions: PendingActions }) {
  if (pending.confirmations.length === 0 && pending.longRunning.length === 0) return null;
  return (
    <section class="pending" data-testid="pending">
      {pending.confirmations.map((request) => (
        <ConfirmationForm key={request.requestId} request={request} busy={busy} actions={actions} />
      ))}
      {pending.longRunning.map((call) => (
        <LongRunningForm key={call.id} call={call} busy={busy} actions={actions} />
      ))}
    </section>
  );
}

/** Parses an optional JSON text; plain words are taken as a string. */
function parsePayload(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function ConfirmationForm({ request, busy, actions }: { request: WirePendingConfirmation; busy: boolean; actions: PendingActions }) {
  const [payload, setPayload] = useState('');
  const call = request.originalFunctionCall;
  return (
    <div class="card pending-confirmation" data-testid="pending-confirmation">
      <div class="card-title">Approve <code>{call.name}</code>?</div>
      {request.hint && <div class="hint">{request.hint}</div>}
      <code class="args">{jsonText(call.args)}</code>
      <label class="field">
        <span>Payload (optional JSON, reaches the tool as <code>ctx.toolConfirmation.payload</code>)</span>
        <input data-testid="confirmation-payload" value={payload} onInput={(e) => setPayload(e.currentTarget.value)} placeholder='{"approver": "Ada"}' />
      </label>
      <div class="buttons">
        <button class="approve" data-testid="approve" disabled={busy} onClick={() => actions.answer(request.requestId, true, parsePayload(payload))}>
          Approve
        </button>
        <button class="deny" data-testid="deny" disabled={busy} onClick={() => actions.answer(request.requestId, false, parsePayload(payload))}>
          Deny
        </button>
      </div>
    </div>
  );
}

function LongRunningForm({ call, busy, actions }: { call: WirePendingLongRunning; busy: boolean; actions: PendingActions }) {
  const [text, setText] = useState('{"status": "done"}');
  const [willContinue, setWillContinue] = useState(false);
  const [problem, setProblem] = useState('');
  const send = () => {
    let response: unknown;
    try {
      response = JSON.parse(text);
    } catch {
      response = undefined;
    }
    if (typeof response !== 'object' || response === null || Array.isArray(response)) return setProblem('The update must be a JSON object.');
    setProblem('');
    actions.update(call.id, response as Record<string, unknown>, willContinue);
  };
  return (
    <div class="card pending-long-running" data-testid="pending-long-running">
      <div class="card-title">
        <code>{call.name}</code> is running <span class="badge">long-running</span>
      </div>
      <label class="field">
        <span>Update (JSON object the model gets)</span>
        <textarea data-testid="long-running-response" rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      <label class="check">
        <input type="checkbox" checked={willContinue} onChange={(e) => setWillContinue(e.currentTarget.checked)} /> intermediate update (more will follow)
      </label>
      {problem && <div class="error">{problem}</div>}
      <div class="buttons">
        <button data-testid="send-update" disabled={busy} onClick={send}>
          Send update
        </button>
      </div>
    </div>
  );
}
