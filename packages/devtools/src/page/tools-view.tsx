import { useEffect, useRef, useState } from 'preact/hooks';
import type { ToolInfo, ToolRunResult } from '../protocol/api-types';
import { api, describeError } from './api-client';
import { JsonBlock } from './json-view';
import { FormValues, SchemaForm, argsFromForm } from './schema-form';

/** The Tools tab: every tool with its description and schema, and a form that runs one alone. */
export function ToolsView({ sessionId }: { sessionId: string | undefined }) {
  const [tools, setTools] = useState<ToolInfo[]>([]);
  const [selected, setSelected] = useState<string | undefined>();
  const [problem, setProblem] = useState('');
  useEffect(() => {
    api.listTools().then(
      (list) => {
        setTools(list);
        setSelected((current) => current ?? list[0]?.name);
      },
      (error: unknown) => setProblem(describeError(error)),
    );
  }, []);
  const tool = tools.find((t) => t.name === selected);
  return (
    <div class="tools-view">
      <nav class="tool-list" data-testid="tool-list">
        {tools.map((t) => (
          <button key={t.name} class={t.name === selected ? 'selected' : ''} data-testid="tool-item" onClick={() => setSelected(t.name)}>
            <code>{t.name}</code>
            {t.requiresConfirmation && <span class="badge">approval</span>}
            {t.isLongRunning && <span class="badge">long-running</span>}
          </button>
        ))}
      </nav>
      {problem && <div class="error">{problem}</div>}
      {tool && <ToolRunner key={tool.name} tool={tool} sessionId={sessionId} />}
    </div>
  );
}

function ToolRunner({ tool, sessionId }: { tool: ToolInfo; sessionId: string | undefined }) {
  const [values, setValues] = useState<FormValues>({});
  const [asApproved, setAsApproved] = useState(false);
  const [useSession, setUseSession] = useState(false);
  const [result, setResult] = useState<ToolRunResult | undefined>();
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState('');
  const stop = useRef<AbortController | undefined>(undefined);
  const run = async () => {
    setRunning(true);
    setProblem('');
    setResult(undefined);
    const controller = new AbortController();
    stop.current = controller;
    try {
      const request = {
        args: argsFromForm(tool.parameters, values),
        ...(useSession && sessionId ? { sessionId } : {}),
        ...(asApproved ? { confirmation: { confirmed: true } } : {}),
      };
      setResult(await api.runTool(tool.name, request, controller.signal));
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      stop.current = undefined;
      setRunning(false);
    }
  };
  return (
    <section class="tool-detail" data-testid="tool-detail">
      <h2>
        <code>{tool.name}</code>
      </h2>
      <p class="description">{tool.description}</p>
      <p class="muted">Offered by {tool.agents.join(', ')}</p>
      <details>
        <summary>Parameters schema</summary>
        <JsonBlock value={tool.parameters} testId="tool-schema" />
      </details>
      {tool.responseSchema && (
        <details>
          <summary>Result schema</summary>
          <JsonBlock value={tool.responseSchema} />
        </details>
      )}
      <form
        class="tool-form"
        data-testid="tool-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <SchemaForm schema={tool.parameters} values={values} onChange={setValues} />
        {tool.requiresConfirmation && (
          <label class="check">
            <input type="checkbox" checked={asApproved} onChange={(e) => setAsApproved(e.currentTarget.checked)} /> run as approved (skip the confirmation gate)
          </label>
        )}
        {sessionId && (
          <label class="check">
            <input type="checkbox" checked={useSession} onChange={(e) => setUseSession(e.currentTarget.checked)} /> with the state of session <code>{sessionId}</code> (read only)
          </label>
        )}
        <div class="buttons">
          <button type="submit" data-testid="run-tool" disabled={running}>
            Run {tool.name}
          </button>
          {running && (
            <button type="button" class="stop" data-testid="stop-tool" onClick={() => stop.current?.abort()}>
              Stop
            </button>
          )}
        </div>
      </form>
      {problem && <div class="error" data-testid="tool-problem">{problem}</div>}
      {result && <ToolResult result={result} />}
    </section>
  );
}

function ToolResult({ result }: { result: ToolRunResult }) {
  const delta = Object.entries(result.stateDelta);
  return (
    <div class={`card result ${result.isError ? 'failed' : ''}`} data-testid="tool-run-result">
      <div class="card-title">
        {result.confirmationRequested ? 'Needs approval: the tool did not run (tick "run as approved")' : result.isError ? '✘ failed' : '✔ result'}
        {result.errorCode && <span class="badge error-code" data-testid="error-code">{result.errorCode}</span>}
        <span class="duration">{result.durationMs} ms</span>
      </div>
      <JsonBlock value={result.response} testId="tool-run-response" />
      {delta.length > 0 && (
        <ul class="state-delta">
          {delta.map(([key, value]) => (
            <li key={key}>
              <span class="pen">✎</span> <code>{key}</code> = <code>{JSON.stringify(value)}</code> <span class="muted">(not stored)</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
