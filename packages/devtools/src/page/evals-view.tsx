import { useEffect, useRef, useState } from 'preact/hooks';
import type { EvalCaseSaved, EvalsInfo, WireEvalReport, WireEvalTurn } from '../protocol/api-types';
import { api, describeError } from './api-client';

/** "Save as eval case" for the open session: records it in the dev server's eval set file and says what was left out. */
export function SaveEvalCase({ sessionId }: { sessionId: string }) {
  const [saved, setSaved] = useState<EvalCaseSaved | undefined>();
  const [problem, setProblem] = useState('');
  useEffect(() => {
    setSaved(undefined);
    setProblem('');
  }, [sessionId]);
  const save = async () => {
    setProblem('');
    try {
      setSaved(await api.saveEvalCase(sessionId));
    } catch (error) {
      setSaved(undefined);
      setProblem(describeError(error));
    }
  };
  return (
    <div class="save-eval">
      <button data-testid="save-eval-case" onClick={() => void save()}>
        Save as eval case
      </button>
      {saved && (
        <span class="muted" data-testid="eval-case-saved">
          {saved.replaced ? 'Replaced' : 'Saved'} case <code>{saved.caseId}</code> ({saved.turns} turn{saved.turns === 1 ? '' : 's'}) in <code>{saved.file}</code>
          {saved.withheld.length > 0 && <> · withheld as secrets: {saved.withheld.join(', ')}</>}
        </span>
      )}
      {problem && <span class="error" data-testid="eval-case-problem">{problem}</span>}
    </div>
  );
}

/** The Evals tab: the eval set file's cases, Run (against the served agent), and pass/fail per case with the trajectory diff and the answer check. */
export function EvalsView() {
  const [info, setInfo] = useState<EvalsInfo | undefined>();
  const [report, setReport] = useState<WireEvalReport | undefined>();
  const [running, setRunning] = useState(false);
  const [problem, setProblem] = useState('');
  const abort = useRef<AbortController | undefined>(undefined);
  useEffect(() => {
    api.evals().then(setInfo, (error: unknown) => setProblem(describeError(error)));
    return () => abort.current?.abort();
  }, []);
  const run = async () => {
    setProblem('');
    setReport(undefined);
    setRunning(true);
    abort.current = new AbortController();
    try {
      setReport(await api.runEvals(abort.current.signal));
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setRunning(false);
    }
  };
  return (
    <div class="evals-view" data-testid="evals">
      <h2>Eval set</h2>
      {info && (
        <p class="muted" data-testid="evals-file">
          <code>{info.file}</code>: {info.set ? `${info.set.cases.length} case${info.set.cases.length === 1 ? '' : 's'}` : 'no file yet: save a session as an eval case'}
        </p>
      )}
      <button type="submit" data-testid="run-evals" disabled={running || !info?.set} onClick={() => void run()}>
        {running ? 'Running…' : 'Run'}
      </button>
      {running && (
        <button class="stop" data-testid="stop-evals" onClick={() => abort.current?.abort()}>
          Stop
        </button>
      )}
      {problem && <div class="error" data-testid="evals-problem">{problem}</div>}
      {report && (
        <div data-testid="eval-report" data-pass={String(report.pass)}>
          <p>
            <strong>{report.pass ? 'PASS' : 'FAIL'}</strong> · {report.passedCases}/{report.cases.length} cases passed
          </p>
          {report.cases.map((c) => (
            <div key={c.id} class={`card eval-case ${c.pass ? 'passed' : 'failed'}`} data-testid="eval-case" data-case-id={c.id} data-pass={String(c.pass)}>
              <div class="card-title">
                <span class={`badge ${c.pass ? '' : 'error-code'}`}>{c.pass ? 'pass' : 'fail'}</span>
                <code>{c.id}</code>
                <span class="muted">
                  {c.passedRuns}/{c.runs} runs passed (threshold {c.threshold})
                </span>
              </div>
              {c.results.map((result) => (
                <div key={result.run}>
                  {c.runs > 1 && <div class="muted">run {result.run}</div>}
                  {result.turns.map((turn) => (
                    <TurnResult key={turn.index} turn={turn} />
                  ))}
                </div>
              ))}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function TurnResult({ turn }: { turn: WireEvalTurn }) {
  return (
    <div class="eval-turn" data-testid="eval-turn" data-pass={String(turn.pass)}>
      <div>
        {turn.pass ? '✓' : '✗'} turn {turn.index + 1}: <q>{turn.user}</q>
      </div>
      {turn.trajectory && (
        <ul class="trajectory-diff" data-testid="trajectory-diff">
          {turn.trajectory.diff.map((line, i) => (
            <li key={i} class={`diff-${line.kind}`} data-kind={line.kind}>
              {line.kind}: {line.expected && <>expected <code>{line.expected}</code> </>}
              {line.actual && <>called <code>{line.actual}</code> </>}
              {line.problems && line.problems.length > 0 && <span class="muted">({line.problems.join('; ')})</span>}
            </li>
          ))}
        </ul>
      )}
      {turn.answerCheck && (
        <div class="answer-check" data-testid="answer-check" data-pass={String(turn.answerCheck.pass)}>
          answer {turn.answerCheck.pass ? 'matches' : 'does not match'} {turn.answerCheck.expected}
          {turn.answerCheck.detail && <span class="muted"> ({turn.answerCheck.detail})</span>}
        </div>
      )}
      {turn.error && <div class="error">{turn.error.code}: {turn.error.message}</div>}
      {turn.pausedOn && <div class="muted">paused on {turn.pausedOn.join(', ')}</div>}
    </div>
  );
}
