import { Module } from '@nestjs/common';
import type { Model } from '@toolsmith/core';
import { OpenAIModel } from '@toolsmith/openai';
import { offlineModel } from './offline-model';

/** Injection token of the model the shop assistant runs on. Tests override it with a `ScriptedModel`. */
export const CHAT_MODEL = Symbol('CHAT_MODEL');

/** A real OpenAI model when `OPENAI_API_KEY` is set (model from `OPENAI_MODEL`), else the offline demo model. */
export function createChatModel(env: NodeJS.ProcessEnv = process.env): Model {
  if (env.OPENAI_API_KEY) return new OpenAIModel({ model: env.OPENAI_MODEL ?? 'gpt-4.1-mini' });
  return offlineModel();
}

/** Provides {@link CHAT_MODEL}. */
@Module({ providers: [{ provide: CHAT_MODEL, useFactory: () => createChatModel() }], exports: [CHAT_MODEL] })
export class ChatModelModule {}
