import type { WireCallConfirmation, WireDecision, WireEvent, WireInnerCall, WirePart } from '../protocol/api-types';
import { JsonBlock, jsonText } from './json-view';

const REQUEST_CONFIRMATION = 'toolsmith_request_confirmation';

/**
 * The conversation as a timeline: each event with its author, text, function calls (arguments),
 * function responses (result, duration, error code), state changes and errors; then the text still
 * streaming in.
 */
export function EventTimeline({ events, streamingText }: { events: WireEvent[]; streamingText: string }) {
  const callTimes = new Map<string, number>();
  for (const event of events) for (const part of event.content?.parts ?? []) if (part.functionCall) callTimes.set(part.functionCall.id, event.timestamp);
  return (
    <ol class="timeline" data-testid="timeline">
      {events.map((event) => (
        <EventItem key={event.id} event={event} callTimes={callTimes} />
      ))}
      {streamingText && (
        <li class="event agent streaming" data-testid="streaming-text">
          <div class="bubble">{streamingText}</div>
        </li>
      )}
    </ol>
  );
}

function EventItem({ event, callTimes }: { event: WireEvent; callTimes: Map<string, number> }) {
  const parts = event.content?.parts ?? [];
  const user = event.author === 'user';
  const delta = Object.entries(event.actions.stateDelta ?? {});
  return (
    <li class={`event ${user ? 'user' : 'agent'}`} data-testid="event" data-event-id={event.id}>
      <div class="meta">
        <span class="author">{event.author}</span>
        <time>{new Date(event.timestamp).toLocaleTimeString()}</time>
      </div>
      {parts.map((part, index) => (
        <PartView key={index} part={part} user={user} event={event} callTimes={callTimes} />
      ))}
      {event.errorCode && (
        <div class="error" data-testid="event-error">
          <code>{event.errorCode}</code> {event.errorMessage}
        </div>
      )}
      {delta.length > 0 && (
        <ul class="state-delta" data-testid="state-delta">
          {delta.map(([key, value]) => (
            <li key={key}>
              <span class="pen">✎</span> <code>{key}</code> = <code>{value === null ? '(deleted)' : JSON.stringify(value)}</code>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function PartView({ part, user, event, callTimes }: { part: WirePart; user: boolean; event: WireEvent; callTimes: Map<string, number> }) {
  if (part.text !== undefined) {
    return <div class={part.thought ? 'bubble thought' : 'bubble'} data-testid={user ? 'user-text' : 'agent-text'}>{part.text}</div>;
  }
  if (part.functionCall) {
    const call = part.functionCall;
    if (call.name === REQUEST_CONFIRMATION) {
      const args = call.args as { originalFunctionCall?: { name: string; args: unknown }; toolConfirmation?: { hint?: string } };
      return (
        <div class="card pause" data-testid="confirmation-request">
          <div class="card-title">Paused — waits for approval of <code>{args.originalFunctionCall?.name}</code></div>
          {args.toolConfirmation?.hint && <div class="hint">{args.toolConfirmation.hint}</div>}
        </div>
      );
    }
    const longRunning = event.longRunningToolIds?.includes(call.id);
    return (
      <div class="card call" data-testid="tool-call" data-tool={call.name}>
        <div class="card-title">
          → <code class="tool-name">{call.name}</code>
          {longRunning && <span class="badge">long-running</span>}
        </div>
        <code class="args" data-testid="tool-call-args">{jsonText(call.args)}</code>
      </div>
    );
  }
  if (part.functionResponse) {
    const response = part.functionResponse;
    if (user) return <AnswerView response={response} />;
    const started = callTimes.get(response.id);
    const code = (response.response.error as { code?: string } | undefined)?.code;
    return (
      <div class={`card result ${response.isError ? 'failed' : ''}`} data-testid="tool-result" data-tool={response.name}>
        <div class="card-title">
          ← <code class="tool-name">{response.name}</code>
          {response.isError && <span class="badge error-code" data-testid="error-code">{code ?? 'error'}</span>}
          {started !== undefined && <span class="duration" data-testid="duration">{event.timestamp - started} ms</span>}
          {event.longRunningToolIds?.includes(response.id) && <span class="badge">pending</span>}
          {response.confirmation && <SettledBy confirmation={response.confirmation} />}
        </div>
        <JsonBlock value={response.response} />
        {response.innerCalls && <InnerCalls calls={response.innerCalls} />}
      </div>
    );
  }
  return <JsonBlock value={part} />;
}

/** Under an agent tool's result: the calls inside it a grant, the person or the confirmation policy settled or judged. */
function InnerCalls({ calls }: { calls: WireInnerCall[] }) {
  return (
    <ul class="inner-calls" data-testid="inner-calls">
      {calls.map((inner) => (
        <li key={`${inner.agent}/${inner.call.id}`} data-testid="inner-call" data-agent={inner.agent} data-tool={inner.call.name}>
          ↳ {inner.agent} → <code>{inner.call.name}</code> {inner.confirmation && <SettledBy confirmation={inner.confirmation} />}
          {inner.policy && (
            <span class="badge" data-testid="policy-verdict" data-mode={inner.policy.mode} data-decision={inner.policy.decision}>
              policy ({inner.policy.mode}): {inner.policy.decision}
              {inner.policy.reason ? ` — ${inner.policy.reason}` : ''}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** How a confirmation settled a call: by the person (which decision) or by a remembered grant. */
function SettledBy({ confirmation }: { confirmation: WireCallConfirmation }) {
  const text =
    confirmation.by === 'grant'
      ? `✔ allowed by grant ${confirmation.grantId ?? ''}`
      : confirmation.by === 'policy'
        ? confirmation.decision === 'reject'
          ? `✘ denied by the policy: ${confirmation.message ?? ''}`
          : '✔ allowed by the policy'
        : `${DECISION_TEXT[confirmation.decision]}${confirmation.grantId ? `, always allowed (${confirmation.grantId})` : ''}`;
  return (
    <span class={`badge settled ${confirmation.by}`} data-testid="settled-by" data-by={confirmation.by} data-decision={confirmation.decision}>
      {text}
    </span>
  );
}

const DECISION_TEXT: Record<WireDecision, string> = { approve: '✔ approved', edit: '✎ approved with edited arguments', reject: '✘ denied', respond: '↩ answered by the user' };

/** A user's function response: a confirmation answer or a long-running update. */
function AnswerView({ response }: { response: NonNullable<WirePart['functionResponse']> }) {
  if (response.name === REQUEST_CONFIRMATION) {
    const answer = response.response as { decision?: WireDecision; confirmed?: boolean; payload?: unknown; args?: unknown; message?: string; result?: unknown; remember?: { scope: string; expiresAt?: number } };
    const decision: WireDecision = answer.decision ?? (answer.confirmed ? 'approve' : 'reject');
    return (
      <div class={`card answer ${decision === 'approve' || decision === 'edit' ? 'approved' : 'denied'}`} data-testid="confirmation-answer" data-decision={decision}>
        <div class="card-title">
          {DECISION_TEXT[decision]}
          {answer.remember && (
            <span class="badge" data-testid="answer-remember">
              always allow: {answer.remember.scope}
              {answer.remember.expiresAt ? ` until ${new Date(answer.remember.expiresAt).toLocaleString()}` : ''}
            </span>
          )}
        </div>
        {answer.args !== undefined && <code class="args" data-testid="answer-args">{jsonText(answer.args)}</code>}
        {answer.message !== undefined && <div class="hint" data-testid="answer-message">“{answer.message}”</div>}
        {answer.result !== undefined && <code class="args" data-testid="answer-result">{jsonText(answer.result)}</code>}
        {answer.payload !== undefined && <code class="args">{jsonText(answer.payload)}</code>}
      </div>
    );
  }
  return (
    <div class="card answer" data-testid="long-running-update">
      <div class="card-title">
        ↻ update for <code>{response.name}</code>
        {response.willContinue && <span class="badge">more to come</span>}
      </div>
      <JsonBlock value={response.response} />
    </div>
  );
}
