import type { FunctionDeclaration, FunctionResponse, LlmRequest } from '@toolsmith/core';
import { ScriptedModel, type ScriptedTurn } from '@toolsmith/core/testing';

const CITIES = /\b(london|paris|new york|tokyo|berlin|rome)\b/gi;
const FEELINGS = /\b(good|bad|great|love|hate|like|rain|rainy|sunny)\b/i;

/**
 * Creates a stand-in for a real model for the weather demos when no provider key is set: a
 * {@link ScriptedModel} whose script reads the request the way a model would (the user's words, the
 * tool results) and answers with function calls or text. It calls the tools it finds among the
 * request's declarations, also under a prefix (`weather_getWeatherReport` from an MCP toolset), and
 * only those: without `analyzeSentiment` it does not call it. Everything else in a demo (runner, tools,
 * validation, DI, state, MCP) runs for real.
 *
 * @example
 * ```ts
 * const picked = pickModel(process.env, createWeatherOfflineModel);
 * ```
 */
export function createWeatherOfflineModel(): ScriptedModel {
  return new ScriptedModel((request) => answer(request), { modelName: 'offline-weather-script' });
}

function answer(request: LlmRequest): ScriptedTurn {
  const last = request.contents[request.contents.length - 1];
  const responses = last.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
  if (responses.length > 0) return responses.map(describe).join(' ');

  const text = last.parts.map((p) => p.text ?? '').join(' ');
  const weather = findTool(request.tools, 'getWeatherReport');
  const sentiment = findTool(request.tools, 'analyzeSentiment');
  const cities = [...new Set([...text.matchAll(CITIES)].map((m) => titleCase(m[0])))];
  if (weather && cities.length > 0) return { calls: cities.map((city) => ({ name: weather.name, args: { city } })) };
  if (sentiment && FEELINGS.test(text)) return { calls: [{ name: sentiment.name, args: { text } }] };
  return 'I can tell you the current weather in a city, or how you feel about it. Which city?';
}

/** The declaration of `name`, or of `name` behind a toolset prefix (`weather_getWeatherReport`). */
function findTool(tools: readonly FunctionDeclaration[], name: string): FunctionDeclaration | undefined {
  return tools.find((declaration) => declaration.name === name || declaration.name.endsWith(`_${name}`));
}

function describe(response: FunctionResponse): string {
  const body = response.response as Record<string, string | number | undefined> & { error?: { message?: string } };
  if (response.isError) return `The ${response.name} tool failed: ${body.error?.message ?? 'unknown error'}`;
  if (response.name.endsWith('getWeatherReport')) {
    return body.status === 'success' ? String(body.report) : `Sorry, ${String(body.errorMessage).replace(/^W/, 'w')}`;
  }
  if (response.name.endsWith('analyzeSentiment')) {
    if (body.sentiment === 'negative') return "I'm sorry the weather isn't to your liking. Maybe a sunnier city?";
    if (body.sentiment === 'positive') return "Glad you like it! Enjoy the weather.";
    return 'Noted.';
  }
  return `(${response.name} answered.)`;
}

const titleCase = (city: string) => city.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());
