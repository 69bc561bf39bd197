import { useState } from 'preact/hooks';
import type { ConfirmationAnswerRequest, LongRunningUpdateRequest, WireGrantScope, WirePending, WirePendingConfirmation, WirePendingLongRunning } from '../protocol/api-types';
import { grantExpiry } from './grant-expiry';
import { jsonText } from './json-view';
import { type FormValues, SchemaForm, argsFromForm } from './schema-form';

/** What the user can answer: confirmations (one of the four decisions) and long-running updates. */
export interface PendingActions {
  answer(requestId: string, answer: ConfirmationAnswerRequest): void;
  update(callId: string, response: Record<string, unknown>, willContinue: boolean, question?: LongRunningUpdateRequest['question']): void;
}

/**
 * The session's pending confirmations (approve, edit, reject, respond, "always allow"; no edit for a request
 * with `editable: false`) and long-running calls (update form). `refusals` holds the server's refusal of the
 * last answer to a request (e.g. edited arguments the tool's schema refuses), shown in its form; `grants`
 * says whether approvals can be remembered.
 */
export function PendingPanel({ pending, busy, actions, grants, refusals }: { pending: WirePending; busy: boolean; actions: PendingActions; grants: boolean; refusals: Record<string, string> }) {
  if (pending.confirmations.length === 0 && pending.longRunning.length === 0) return null;
  return (
    <section class="pending" data-testid="pending">
      {pending.confirmations.map((request) => (
        <ConfirmationForm key={request.requestId} request={request} busy={busy} actions={actions} grants={grants} refusal={refusals[request.requestId]} />
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

type Mode = 'choose' | 'edit' | 'reject' | 'respond';

function ConfirmationForm({ request, busy, actions, grants, refusal }: { request: WirePendingConfirmation; busy: boolean; actions: PendingActions; grants: boolean; refusal?: string }) {
  // A request an agent tool relays is about its inner agent's call: that is what the person decides on.
  const call = request.relayed?.call ?? request.originalFunctionCall;
  const [payload, setPayload] = useState('');
  const [mode, setMode] = useState<Mode>('choose');
  const [edited, setEdited] = useState(() => jsonText(call.args, true));
  const [message, setMessage] = useState('');
  const [result, setResult] = useState('');
  const [always, setAlways] = useState(false);
  const [scope, setScope] = useState<WireGrantScope>('session');
  const [expiry, setExpiry] = useState('');
  const [problem, setProblem] = useState('');
  // A form request (payloadSchema) is answered with a form built from its schema, as the Tools tab builds one.
  const [formValues, setFormValues] = useState<FormValues>({});
  // A long-running call's update asked this question: the call already ran (no edit), and no grant answers it.
  const question = request.update !== undefined;
  // A request about the call as it was made (`editable: false`) takes no edit: the runner would refuse it.
  const editable = !question && request.editable !== false;
  const send = (answer: ConfirmationAnswerRequest) => {
    const extra = request.payloadSchema && answer.decision !== 'reject' && answer.decision !== 'respond' ? argsFromForm(request.payloadSchema, formValues) : parsePayload(payload);
    setProblem('');
    actions.answer(request.requestId, extra === undefined ? answer : { ...answer, payload: extra });
  };
  const approve = () => {
    if (!always || request.askedBy === 'tool') return send({ decision: 'approve' });
    const expiresAt = grantExpiry(expiry, Date.now());
    if (typeof expiresAt === 'string') return setProblem(expiresAt);
    send({ decision: 'approve', remember: { scope, ...(expiresAt === undefined ? {} : { expiresAt }) } });
  };
  const runEdited = () => {
    let args: unknown;
    try {
      args = JSON.parse(edited);
    } catch (error) {
      return setProblem(`The arguments are not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return setProblem('The arguments must be a JSON object.');
    send({ decision: 'edit', args: args as Record<string, unknown> });
  };
  const respond = () => {
    if (result.trim() === '') return setProblem('Write the answer that stands in for the tool\'s result.');
    send({ decision: 'respond', result: parsePayload(result) });
  };
  return (
    <div class="card pending-confirmation" data-testid="pending-confirmation" data-request-id={request.requestId}>
      <div class="card-title">
        {question ? (
          <>
            <code>{call.name}</code> asks <span class="badge">long-running</span>
          </>
        ) : (
          <>
            Approve <code>{call.name}</code>?
          </>
        )}
        <span class="muted" data-testid="asked-by">
          {request.relayed ? `asked by ${request.relayed.agent}, inside the agent tool ${request.originalFunctionCall.name} of ${request.agentName}` : `asked by ${request.agentName}`}
        </span>
      </div>
      {request.hint && <div class="hint">{request.hint}</div>}
      {!question && !editable && (
        <div class="muted" data-testid="not-editable">
          The question is about the call as it was made: its arguments cannot be edited.
        </div>
      )}
      <code class="args">{jsonText(call.args)}</code>
      {refusal && (
        <div class="error" data-testid="confirmation-refusal">
          {refusal}
        </div>
      )}
      {problem && (
        <div class="error" data-testid="confirmation-problem">
          {problem}
        </div>
      )}
      {mode === 'edit' && (
        <label class="field">
          <span>Arguments to run the call with (checked against the tool&apos;s schema)</span>
          <textarea data-testid="edit-args" rows={Math.min(12, edited.split('\n').length + 1)} value={edited} onInput={(e) => setEdited(e.currentTarget.value)} />
        </label>
      )}
      {mode === 'reject' && (
        <label class="field">
          <span>Message for the model (optional)</span>
          <input data-testid="reject-message" value={message} onInput={(e) => setMessage(e.currentTarget.value)} placeholder="Only 100, please." />
        </label>
      )}
      {mode === 'respond' && (
        <label class="field">
          <span>Your answer, given to the model as the call&apos;s result (JSON, or plain text); the tool does not run</span>
          <textarea data-testid="respond-result" rows={3} value={result} onInput={(e) => setResult(e.currentTarget.value)} placeholder='{"status": "refunded by phone"}' />
        </label>
      )}
      {(mode === 'choose' || mode === 'edit') && request.payloadSchema && (
        <div class="field" data-testid="confirmation-form">
          <span>The answer (fills in the request&apos;s form; reaches the tool as <code>ctx.toolConfirmation.payload</code>)</span>
          <SchemaForm schema={request.payloadSchema} values={formValues} onChange={setFormValues} />
        </div>
      )}
      {(mode === 'choose' || mode === 'edit') && !request.payloadSchema && (
        <label class="field">
          <span>Payload (optional JSON, reaches the tool as <code>ctx.toolConfirmation.payload</code>)</span>
          <input data-testid="confirmation-payload" value={payload} onInput={(e) => setPayload(e.currentTarget.value)} placeholder='{"approver": "Ada"}' />
        </label>
      )}
      {mode === 'choose' && grants && request.askedBy !== 'tool' && !question && (
        <div class="always">
          <label class="check">
            <input type="checkbox" data-testid="always-allow" checked={always} onChange={(e) => setAlways(e.currentTarget.checked)} /> Always allow <code>{call.name}</code>
          </label>
          {always && (
            <div class="always-options">
              <label class="field">
                <span>for</span>
                <select data-testid="grant-scope" value={scope} onChange={(e) => setScope(e.currentTarget.value as WireGrantScope)}>
                  <option value="session">this session</option>
                  <option value="user">this user</option>
                  <option value="app">the whole app</option>
                </select>
              </label>
              <label class="field">
                <span>expires after (minutes, empty: never)</span>
                <input data-testid="grant-expiry" inputMode="numeric" value={expiry} onInput={(e) => setExpiry(e.currentTarget.value)} placeholder="60" />
              </label>
            </div>
          )}
        </div>
      )}
      <div class="buttons">
        {mode === 'choose' && (
          <>
            <button class="approve" data-testid="approve" disabled={busy} onClick={approve}>
              {question ? 'Send answer' : always ? 'Approve and always allow' : 'Approve'}
            </button>
            {editable && (
              <button data-testid="edit" disabled={busy} onClick={() => setMode('edit')}>
                Edit arguments…
              </button>
            )}
            <button class="deny" data-testid="deny" disabled={busy} onClick={() => send({ decision: 'reject' })}>
              Deny
            </button>
            <button data-testid="reject-with-message" disabled={busy} onClick={() => setMode('reject')}>
              Reject with a message…
            </button>
            <button data-testid="respond-instead" disabled={busy} onClick={() => setMode('respond')}>
              Respond instead…
            </button>
          </>
        )}
        {mode === 'edit' && (
          <button class="approve" data-testid="approve-edited" disabled={busy} onClick={runEdited}>
            Run with these arguments
          </button>
        )}
        {mode === 'reject' && (
          <button class="deny" data-testid="send-rejection" disabled={busy} onClick={() => send(message.trim() === '' ? { decision: 'reject' } : { decision: 'reject', message: message.trim() })}>
            Reject
          </button>
        )}
        {mode === 'respond' && (
          <button data-testid="send-response" disabled={busy} onClick={respond}>
            Send as the result
          </button>
        )}
        {mode !== 'choose' && (
          <button data-testid="back" disabled={busy} onClick={() => (setMode('choose'), setProblem(''))}>
            Back
          </button>
        )}
      </div>
    </div>
  );
}

function LongRunningForm({ call, busy, actions }: { call: WirePendingLongRunning; busy: boolean; actions: PendingActions }) {
  const [text, setText] = useState('{"status": "done"}');
  const [willContinue, setWillContinue] = useState(false);
  const [hint, setHint] = useState('');
  const [schemaText, setSchemaText] = useState('');
  const [problem, setProblem] = useState('');
  const send = () => {
    let response: unknown;
    try {
      response = JSON.parse(text);
    } catch {
      response = undefined;
    }
    if (typeof response !== 'object' || response === null || Array.isArray(response)) return setProblem('The update must be a JSON object.');
    // An intermediate update may ask the person a question; the runner checks it (a bad one is refused, nothing stored).
    let question: LongRunningUpdateRequest['question'];
    if (willContinue && (hint.trim() !== '' || schemaText.trim() !== '')) {
      let payloadSchema: unknown;
      if (schemaText.trim() !== '') {
        try {
          payloadSchema = JSON.parse(schemaText);
        } catch {
          return setProblem('The question\'s form must be a JSON Schema (JSON).');
        }
      }
      question = { ...(hint.trim() === '' ? {} : { hint: hint.trim() }), ...(payloadSchema === undefined ? {} : { payloadSchema: payloadSchema as Record<string, unknown> }) };
    }
    setProblem('');
    actions.update(call.id, response as Record<string, unknown>, willContinue, question);
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
        <input type="checkbox" data-testid="will-continue" checked={willContinue} onChange={(e) => setWillContinue(e.currentTarget.checked)} /> intermediate update (more will follow)
      </label>
      {willContinue && (
        <>
          <label class="field">
            <span>Ask the person (optional): the question</span>
            <input data-testid="question-hint" value={hint} onInput={(e) => setHint(e.currentTarget.value)} placeholder="Keep the 12 locked rows?" />
          </label>
          <label class="field">
            <span>and the form of its answer (optional JSON Schema)</span>
            <textarea data-testid="question-schema" rows={3} value={schemaText} onInput={(e) => setSchemaText(e.currentTarget.value)} placeholder='{"type": "object", "properties": {"keep": {"type": "boolean"}}, "required": ["keep"]}' />
          </label>
        </>
      )}
      {problem && <div class="error" data-testid="update-problem">{problem}</div>}
      <div class="buttons">
        <button data-testid="send-update" disabled={busy} onClick={send}>
          Send update
        </button>
      </div>
    </div>
  );
}
