import { FunctionResponse, LlmRequest } from '@toolsmith/core';
import { ScriptedModel, ScriptedTurn } from '@toolsmith/core/testing';

const CITY = /\b(london|paris|tokyo|berlin)\b/i;

/**
 * Stands in for a real model so the example runs without a provider key: it reads the request as a
 * model would (the user's words, the tool results) and answers with a function call or text. The
 * MCP side (server, client, validation, sessions) runs for real.
 */
export function createOfflineModel(): ScriptedModel {
  return new ScriptedModel((request) => answer(request), { modelName: 'offline-mcp-script' });
}

function answer(request: LlmRequest): ScriptedTurn {
  const last = request.contents[request.contents.length - 1];
  const responses = last.parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
  if (responses.length > 0) return responses.map(describe).join(' ');

  const city = CITY.exec(last.parts.map((part) => part.text ?? '').join(' '))?.[0];
  const tool = request.tools.find((declaration) => declaration.name.endsWith('getWeatherReport'));
  if (city && tool) return { calls: [{ name: tool.name, args: { city } }] };
  return 'Ask me about the weather in London, Paris, Tokyo or Berlin.';
}

function describe(response: FunctionResponse): string {
  const body = response.response as { status?: string; report?: string; errorMessage?: string; error?: { message?: string } };
  if (response.isError) return `The weather service failed: ${body.error?.message ?? 'unknown error'}`;
  return body.status === 'success' ? String(body.report) : `Sorry: ${String(body.errorMessage)}`;
}
