import { AnthropicModel } from '@toolsmith/anthropic';
import type { Model } from '@toolsmith/core';
import { GeminiModel } from '@toolsmith/gemini';
import { OpenAIModel } from '@toolsmith/openai';

/** The model a demo runs on, and how to describe it to the person watching. */
export interface PickedModel {
  model: Model;
  offline: boolean;
  description: string;
}

/**
 * Picks the model a demo runs on: the first provider whose key is set (`OPENAI_API_KEY`, or
 * `OPENAI_BASE_URL` alone for a local OpenAI-compatible server; `ANTHROPIC_API_KEY`; `GEMINI_API_KEY`),
 * with `TOOLSMITH_MODEL` overriding the model id; otherwise the demo's own offline model (a `ScriptedModel`), built only when needed.
 *
 * @example
 * ```ts
 * const picked = pickModel(process.env, createOfflineModel);
 * ```
 */
export function pickModel(env: NodeJS.ProcessEnv, offlineModel: () => Model): PickedModel {
  const id = env.TOOLSMITH_MODEL;
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    // OPENAI_BASE_URL alone means a local OpenAI-compatible server (Ollama, vLLM, llama.cpp), which needs no key.
    const baseURL = env.OPENAI_BASE_URL || undefined;
    const model = new OpenAIModel({ model: id ?? (env.OPENAI_API_KEY ? 'gpt-4.1-mini' : 'llama3.1'), apiKey: env.OPENAI_API_KEY, baseURL });
    return { model, offline: false, description: `OpenAI ${model.modelName}${baseURL ? ` at ${baseURL}` : ''}` };
  }
  if (env.ANTHROPIC_API_KEY) {
    const model = new AnthropicModel({ model: id ?? 'claude-haiku-4-5', maxTokens: 1024, apiKey: env.ANTHROPIC_API_KEY });
    return { model, offline: false, description: `Anthropic ${model.modelName}` };
  }
  if (env.GEMINI_API_KEY) {
    const model = new GeminiModel({ model: id ?? 'gemini-2.5-flash', apiKey: env.GEMINI_API_KEY });
    return { model, offline: false, description: `Gemini ${model.modelName}` };
  }
  return {
    model: offlineModel(),
    offline: true,
    description: 'offline: a ScriptedModel stands in for the LLM (set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY to use a real one)',
  };
}
