import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import type { Session } from '@toolsmith/core';
import type { EvalSet } from '@toolsmith/evals';
import { evalCaseFromSession, readEvalSetFile, runEvalSet } from '@toolsmith/evals';
import { DevApiError } from './dev-api-error';
import type { AgentModule } from './load-agent-module';
import type { EvalCaseSaved, EvalsInfo, WireEvalReport } from './protocol/api-types';
import { withholdEvalSecrets } from './withhold-eval-secrets';

/** Where the dev server keeps eval cases when no file is given, relative to the project directory. */
export const DEFAULT_EVALS_FILE = 'evals/dev.evals.json';

/**
 * The dev server's eval set file: sessions saved into it as cases (`evalCaseFromSession`, secret-looking
 * arguments withheld), and the set run against the served agent (`runEvalSet`, each run in a new
 * in-memory session store, so eval runs never show up among the dev sessions).
 */
export class DevEvals {
  /** The file's absolute path. */
  readonly file: string;

  constructor(
    private readonly agentModule: AgentModule,
    file: string | undefined,
    cwd: string,
  ) {
    this.file = resolve(cwd, file ?? DEFAULT_EVALS_FILE);
  }

  /** The file and the cases in it (none while it does not exist). */
  info(): EvalsInfo {
    if (!existsSync(this.file)) return { file: this.file };
    const set = readEvalSetFile(this.file);
    return { file: this.file, set: { id: set.id, ...(set.name ? { name: set.name } : {}), cases: set.cases.map((c) => ({ id: c.id, turns: c.turns.length })) } };
  }

  /**
   * Records `session` as a case of the file's set (made, with the app's name as id, when the file does not
   * exist; a case of the same id is replaced). Only Toolsmith's own JSON format is written.
   */
  saveCase(session: Session, caseId?: string): EvalCaseSaved {
    if (extname(this.file) !== '.json') throw new DevApiError('BAD_REQUEST', `Cases are saved to a .json eval set file; ${this.file} is not one (start the dev server with --evals <file>.json).`);
    const set = this.readOwnFormat();
    const recorded = evalCaseFromSession(session, { ...(caseId ? { id: caseId } : {}) });
    if (recorded.turns.length === 0) throw new DevApiError('BAD_REQUEST', `Session "${session.id}" has no user message to record as a turn.`);
    const { evalCase, withheld } = withholdEvalSecrets(recorded);
    const at = set.cases.findIndex((c) => c.id === evalCase.id);
    if (at >= 0) set.cases[at] = evalCase;
    else set.cases.push(evalCase);
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(set, null, 2)}\n`);
    renameSync(temporary, this.file); // a reader never sees half a file
    return { file: this.file, setId: set.id, caseId: evalCase.id, replaced: at >= 0, turns: evalCase.turns.length, withheld };
  }

  /** Runs the file's set (or the cases named) against the served agent and reports each case. */
  async run(caseIds: string[] | undefined, signal: AbortSignal): Promise<WireEvalReport> {
    if (!existsSync(this.file)) throw new DevApiError('NOT_FOUND', `There is no eval set file at ${this.file}: save a session as an eval case first, or start the dev server with --evals <file>.`);
    let set = readEvalSetFile(this.file);
    if (caseIds) {
      const unknown = caseIds.filter((id) => !set.cases.some((c) => c.id === id));
      if (unknown.length > 0) throw new DevApiError('BAD_REQUEST', `No case ${unknown.map((id) => `"${id}"`).join(', ')} in ${this.file}.`);
      set = { ...set, cases: set.cases.filter((c) => caseIds.includes(c.id)) };
    }
    const module = this.agentModule;
    const report = await runEvalSet(set, {
      agent: module.agent,
      providers: module.providers,
      ...(module.plugins ? { plugins: module.plugins } : {}),
      appName: module.runner?.appName ?? module.appName,
      signal,
    });
    return { file: this.file, ...report };
  }

  /** The file's set in Toolsmith's format, or a new one; an ADK file is refused (its format cannot hold every case). */
  private readOwnFormat(): EvalSet {
    if (!existsSync(this.file)) return { id: this.agentModule.appName, cases: [] };
    const set = readEvalSetFile(this.file); // not JSON, not an eval set: EVAL_SET_INVALID
    const raw = JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, unknown>;
    if ('eval_set_id' in raw || 'evalSetId' in raw) {
      throw new DevApiError('BAD_REQUEST', `${this.file} is in ADK's format; the dev server saves cases to Toolsmith's own (start it with --evals <another file>.json).`);
    }
    return set;
  }
}
