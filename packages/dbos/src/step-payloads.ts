import { randomUUID } from 'node:crypto';
import type { ArtifactService } from '@toolsmith/core';
import { StepPayloadMissingError } from './step-payload-missing-error';

/** Where a run's large step outputs are saved: the session of the run. */
export interface PayloadLocation {
  appName: string;
  userId: string;
  sessionId: string;
}

/** What a step records of an output: the output itself, or, when large, the artifact holding it. */
export type RecordedPayload<T> = { value: T } | { artifact: { filename: string; version: number } };

/** The artifact scope of a run's step outputs: session `toolsmith.dbos:<sessionId>` of the run's user, never listed with the run's own files. */
export function payloadScope(where: PayloadLocation): PayloadLocation {
  return { ...where, sessionId: `toolsmith.dbos:${where.sessionId}` };
}

/**
 * Keeps step outputs small: an output whose JSON is longer than `thresholdChars` is saved with the
 * runner's artifact service (a `text` part holding the JSON, file `toolsmith.dbos.<uuid>.json` in
 * session `toolsmith.dbos:<sessionId>` of the run's user: a scope of its own, so the run's tools and
 * `load_artifacts` never list it) and the step records that file and version instead. Without an
 * artifact service, every output is recorded whole.
 */
export class StepPayloads {
  constructor(
    private readonly artifacts: ArtifactService | undefined,
    private readonly thresholdChars: number,
  ) {}

  /** What to record of `value` (called inside the step, so the save is part of it). */
  async record<T>(value: T, where: PayloadLocation): Promise<RecordedPayload<T>> {
    if (!this.artifacts) return { value };
    const json = JSON.stringify(value);
    if (json.length <= this.thresholdChars) return { value };
    const filename = `toolsmith.dbos.${randomUUID()}.json`;
    const version = await this.artifacts.saveArtifact({ ...payloadScope(where), filename, artifact: { text: json } });
    return { artifact: { filename, version } };
  }

  /** The output a step recorded (loaded from its artifact when it was saved there). */
  async restore<T>(recorded: RecordedPayload<T>, where: PayloadLocation): Promise<T> {
    if ('value' in recorded) return recorded.value;
    const part = await this.artifacts?.loadArtifact({ ...payloadScope(where), ...recorded.artifact });
    if (part?.text === undefined) throw new StepPayloadMissingError(recorded.artifact.filename, recorded.artifact.version);
    return JSON.parse(part.text) as T;
  }
}
