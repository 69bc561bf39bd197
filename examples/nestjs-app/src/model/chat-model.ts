import { Module } from '@nestjs/common';
import { pickModel } from '@toolsmith/example-kit';
import type { PickedModel } from '@toolsmith/example-kit';
import { offlineModel } from './offline-model';

/** Injection token of the model the shop assistant runs on. Tests override it with a scripted model. */
export const CHAT_MODEL = Symbol('CHAT_MODEL');

/**
 * The model: a real provider when its key is set (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY` or
 * `GEMINI_API_KEY`; `TOOLSMITH_MODEL` picks the model id), else the offline demo model.
 */
export function pickChatModel(env: NodeJS.ProcessEnv = process.env): PickedModel {
  return pickModel(env, offlineModel);
}

/** Provides {@link CHAT_MODEL}. */
@Module({ providers: [{ provide: CHAT_MODEL, useFactory: () => pickChatModel().model }], exports: [CHAT_MODEL] })
export class ChatModelModule {}
