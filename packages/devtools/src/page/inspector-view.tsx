import { useEffect, useState } from 'preact/hooks';
import type { WireInspection, WireModelAttempt, WireModelCall, WireSpan } from '../protocol/api-types';
import { api, describeError } from './api-client';
import { JsonBlock } from './json-view';

/**
 * The Inspector tab: for the open session, each model call (what the runner sent the model's adapter,
 * the body the adapter sent the provider on each attempt, retries included, what came back, tokens,
 * latency) and each run as a tree of its OpenTelemetry spans.
 */
export function InspectorView({ sessionId, available }: { sessionId: string | undefined; available: boolean }) {
  const [inspection, setInspection] = useState<WireInspection | undefined>();
  const [problem, setProblem] = useState('');
  const load = () => {
    if (!sessionId || !available) return;
    setProblem('');
    api.inspect(sessionId).then(setInspection, (error: unknown) => setProblem(describeError(error)));
  };
  useEffect(load, [sessionId, available]);
  if (!available) {
    return (
      <div class="inspector-view">
        <p class="muted" data-testid="inspector-unavailable">
          The module exports its own Runner, so its runs are not traced here. Export the agent instead to inspect its model calls.
        </p>
      </div>
    );
  }
  if (!sessionId) return <div class="inspector-view"><p class="muted">Open a session to inspect its runs.</p></div>;
  return (
    <div class="inspector-view" data-testid="inspector">
      <div class="inspector-head">
        <h2>Model calls</h2>
        <button data-testid="inspector-refresh" onClick={load}>
          Refresh
        </button>
      </div>
      {problem && <div class="error">{problem}</div>}
      {inspection && inspection.modelCalls.length === 0 && <p class="muted">No model call recorded for this session (runs before this server started are not).</p>}
      {inspection?.modelCalls.map((call, index) => <ModelCallCard key={call.spanId} call={call} index={index + 1} />)}
      <h2>Runs</h2>
      {inspection && <SpanTree spans={inspection.spans} />}
    </div>
  );
}

function ModelCallCard({ call, index }: { call: WireModelCall; index: number }) {
  const { input, cached, output, reasoning } = call.tokens;
  return (
    <div class={`card model-call ${call.error ? 'failed' : ''}`} data-testid="model-call">
      <div class="card-title">
        #{index} <code>{call.model}</code> <span class="muted">{call.provider}</span>
        {call.error && <span class="badge error-code">{call.error}</span>}
        <span class="duration" data-testid="model-call-latency">{Math.round(call.latencyMs)} ms</span>
      </div>
      <div class="tokens" data-testid="model-call-tokens">
        input {input ?? '–'} (cached {cached ?? 0}) · output {output ?? '–'} (reasoning {reasoning ?? 0})
        {call.finishReasons && <> · finish {call.finishReasons.join(', ')}</>}
      </div>
      <details data-testid="model-call-request">
        <summary>Request</summary>
        <JsonBlock value={call.request} />
      </details>
      {call.attempts.map((attempt) => (
        <AttemptBlock key={attempt.attempt} attempt={attempt} />
      ))}
      <details data-testid="model-call-response">
        <summary>Response</summary>
        <JsonBlock value={call.response ?? null} />
      </details>
    </div>
  );
}

/** One attempt of the adapter: the body it sent the provider, its latency and, on failure, its error code. */
function AttemptBlock({ attempt }: { attempt: WireModelAttempt }) {
  return (
    <details data-testid="model-call-attempt" data-attempt={attempt.attempt} class={attempt.error ? 'failed' : ''}>
      <summary>
        {attempt.attempt === 1 ? 'Sent to the provider' : `Retry ${attempt.attempt - 1}`} <span class="muted">{Math.round(attempt.latencyMs)} ms</span>
        {attempt.error && <span class="badge error-code" data-testid="attempt-error">{attempt.error}</span>}
      </summary>
      {attempt.errorMessage && <div class="error">{attempt.errorMessage}</div>}
      <JsonBlock value={attempt.body ?? null} />
    </details>
  );
}

/** The spans as a tree: each invocation with its agents, their model calls and tool calls. */
function SpanTree({ spans }: { spans: WireSpan[] }) {
  const children = new Map<string | undefined, WireSpan[]>();
  const ids = new Set(spans.map((span) => span.spanId));
  for (const span of spans) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : undefined;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const render = (parent: string | undefined) => (
    <ul class="span-tree">
      {(children.get(parent) ?? []).map((span) => (
        <li key={span.spanId} data-testid="span" data-span-name={span.name} class={span.status === 'error' ? 'failed' : ''}>
          <span class="span-name">{span.name}</span> <span class="muted">{Math.round(span.durationMs)} ms</span>
          {span.status === 'error' && <span class="badge error-code">{String(span.attributes['error.type'] ?? 'error')}</span>}
          {children.has(span.spanId) && render(span.spanId)}
        </li>
      ))}
    </ul>
  );
  return render(undefined);
}
